/** A person's initials for the round avatars that stand in for photos (about page's team, blog authors). */
export function initialsOf(name: string) {
  return name
    .split(" ")
    .map((part) => part[0])
    .join("")
}
