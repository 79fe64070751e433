// MoveType strings with blanks (§2.1 "Blank characters are ignored when two struct tags are compared").

/** The type with a blank on each side of every "::", after every "<" and ",", and before every ">". */
export function withBlanks(type: string): string {
  return type.replaceAll("::", " :: ").replaceAll("<", "< ").replaceAll(",", ", ").replaceAll(">", " >");
}
