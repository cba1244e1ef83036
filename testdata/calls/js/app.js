const json = require('./lib/json');
const { parse } = require('./lib/xml');
const path = require('path');

function readJSON(s) {
  return json.parse(s);
}

function readXML(s) {
  return parse(s);
}

function where(p) {
  return path.join(p, 'x');
}

class Router {
  handle(req) {
    this.route(req);
  }

  route(req) {
    return req;
  }
}

module.exports = { readJSON, readXML, where, Router };
