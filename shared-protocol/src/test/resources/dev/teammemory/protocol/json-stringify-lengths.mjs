// Produces json-stringify-lengths.json: for each sample string, JSON.stringify(sample) and its
// UTF-8 length, the figure the reference client's batch planner counts.
// Run with: node json-stringify-lengths.mjs > json-stringify-lengths.json
const samples = [
  "",
  "MEMORY.md",
  "testing/no-mocks.md",
  "# Team memory\n",
  "quote \" and backslash \\",
  "\b\f\n\r\t",
  "\u0000\u0001\u001f",
  "\u007f\u0080\u009f",
  "caf\u00e9",
  "\u20ac \u2028 \u2029",
  "\uFF21\uFF0E\uFF0F",
  "\uD83D\uDE00 emoji",
  "lone high \uD800 surrogate",
  "lone low \uDC00 surrogate",
  "reversed pair \uDE00\uD83D",
  "high at end \uD83D",
  "</script> & <b> 'single' `back`",
  "mixed: \u00e9\u4e2d\u6587\uD83D\uDE00\"\\\n\u0007",
];
const rows = samples.map((text) => ({
  text,
  stringified: JSON.stringify(text),
  stringifiedLength: Buffer.byteLength(JSON.stringify(text), "utf8"),
}));
console.log(JSON.stringify(rows, null, 2));
