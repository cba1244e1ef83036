const { main } = require('./app');

test('main', () => {
  main();
});
