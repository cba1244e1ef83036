function $find(sel) {
  return query(sel);
}

const $el = $find("#app");
