var res = Object.create(http.ServerResponse.prototype);

res.send = function send(body) {
  write(body);
};

module.exports.json = function (obj) {
  res.send(stringify(obj));
};

exports.status = (code) => {
  setStatus(code);
};

View.prototype.render = function render(name) {
  lookup(name);
};

module.exports = function createApplication() {
  return init();
};
