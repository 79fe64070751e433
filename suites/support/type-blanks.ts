// MoveType strings with blanks (§2.1 "Blank characters are ignored when two struct tags are compared").
// The words speak of struct tags, so the blanks go inside struct tags only: around their "::", and
// inside their generics (after "<" and ",", before ">"). The generics of vector<…> are not a struct tag
// and keep their form ("vector<u8>" stays as it is; "vector<0x1::string::String>" gets blanks only
// around the inner tag's "::").

const TOKEN = /::|<|>|,|[^:<>,]+/g;

/** The type with blanks inside its struct tags; a type without one comes back as it was. */
export function withBlanks(type: string): string {
  const tokens = type.match(TOKEN) ?? [];
  // For each open "<": whether it opens a struct tag's generics (and not vector's).
  const opened: boolean[] = [];
  let out = "";
  tokens.forEach((token, i) => {
    const inStruct = opened[opened.length - 1] === true;
    if (token === "::") out += " :: ";
    else if (token === "<") {
      const struct = i >= 2 && tokens[i - 2] === "::";
      opened.push(struct);
      out += struct ? "< " : "<";
    } else if (token === ">") out += opened.pop() === true ? " >" : ">";
    else if (token === ",") out += inStruct ? ", " : ",";
    else out += token;
  });
  return out;
}
