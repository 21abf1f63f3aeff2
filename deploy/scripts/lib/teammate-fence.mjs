// Whether a marker reached a recorded model request inside one teammate-notes fence, and whose:
//   node teammate-fence.mjs REQUEST-FILE MARKER AUTHOR
// REQUEST-FILE is what the fake APIs record: the request line, then the JSON body. Every string of
// the body is searched (hook context reaches the model inside message text). Exit 0 when MARKER sits
// between a fence's opening (naming AUTHOR) and that fence's first closing tag, 1 otherwise; one
// line on stdout says what was found.
import { readFileSync } from "node:fs";

const [file, marker, author] = process.argv.slice(2);
const raw = readFileSync(file, "utf8");
const body = JSON.parse(raw.slice(raw.indexOf("\n") + 1));
const texts = [];
(function collect(value) {
  if (typeof value === "string") texts.push(value);
  else if (Array.isArray(value)) value.forEach(collect);
  else if (value && typeof value === "object") Object.values(value).forEach(collect);
})(body);

for (const text of texts) {
  const at = text.indexOf(marker);
  if (at < 0) continue;
  const opened = text.lastIndexOf("<teammate-notes ", at);
  if (opened < 0) {
    console.log(`${marker} is in the request outside any fence`);
    process.exit(1);
  }
  const closed = text.indexOf("</teammate-notes>", opened);
  const opening = text.slice(opened, text.indexOf("\n", opened));
  if (closed < at) {
    console.log(`${marker} is after the fence ${opening} closed`);
    process.exit(1);
  }
  if (!opening.includes(`author="${author}"`)) {
    console.log(`${marker} is inside ${opening}, which does not name ${author}`);
    process.exit(1);
  }
  const line = text.slice(text.lastIndexOf("\n", at) + 1, text.indexOf("\n", at));
  const before = text.slice(text.lastIndexOf("\n", text.lastIndexOf("\n", at) - 1) + 1, text.lastIndexOf("\n", at));
  console.log(`inside ${opening} (line before: ${JSON.stringify(before)}; line: ${JSON.stringify(line)})`);
  process.exit(0);
}
console.log(`${marker} is not in the request`);
process.exit(1);
