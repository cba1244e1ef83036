// The same name as lib/json.js's parse.
function parse(s) {
  return s;
}

module.exports = { parse };
