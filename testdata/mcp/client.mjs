// client.mjs drives `rlm mcp` with the official MCP TypeScript SDK client
// (@modelcontextprotocol/sdk, installed by `npm ci` from the repository's
// package.json) over stdio, as an editor or agent would. It is run by
// cmd/rlm's TestARealMCPClientDrivesRlmMCP, which builds the binary and
// passes, in the environment:
//
//   RLM_BIN          the rlm binary
//   RLM_SAMPLE       a writable copy of testdata/gosample
//   RLM_SLOW_SAMPLE  another copy, for the cancellation server
//   RLM_NETHTTP      $GOROOT/src/net/http (served read-only, in memory)
//   RLM_HOSTILE      testdata/hostile-queries.txt
//   RLM_CATALOG      examples/catalog/catalog.yaml (for compile)
//
// It prints "ok CHECK" per check, then one JSON line {"checks":[...]}, and
// exits non-zero on the first failed assertion.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';

function env(name) {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
}
const BIN = env('RLM_BIN');
const SAMPLE = env('RLM_SAMPLE');
const SLOW = env('RLM_SLOW_SAMPLE');
const NETHTTP = env('RLM_NETHTTP');
const HOSTILE = env('RLM_HOSTILE');
const CATALOG = env('RLM_CATALOG');

const checks = [];
function check(name, detail = '') {
  checks.push(name);
  console.log(`ok ${name}${detail ? ` (${detail})` : ''}`);
}

function transport(args, extraEnv = {}) {
  return new StdioClientTransport({
    command: BIN,
    args: ['mcp', ...args],
    env: { ...getDefaultEnvironment(), ...extraEnv },
    stderr: 'inherit',
  });
}

async function start(args, extraEnv) {
  const client = new Client({ name: 'rlm-acceptance', version: '1.0.0' });
  await client.connect(transport(args, extraEnv));
  return client;
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms); }),
  ]).finally(() => clearTimeout(timer));
}

// body returns a tool result's JSON, checking that the text content and
// the structured content agree.
function body(res) {
  assert.equal(res.content.length, 1);
  assert.equal(res.content[0].type, 'text');
  const v = JSON.parse(res.content[0].text);
  assert.deepEqual(res.structuredContent, v);
  return v;
}

async function ok(client, name, args) {
  const res = await client.callTool({ name, arguments: args });
  assert.ok(!res.isError, `${name}(${JSON.stringify(args).slice(0, 120)}) failed: ${res.content?.[0]?.text}`);
  return body(res);
}

async function fails(client, name, args) {
  const res = await client.callTool({ name, arguments: args });
  assert.equal(res.isError, true, `${name}(${JSON.stringify(args).slice(0, 120)}) succeeded: ${res.content?.[0]?.text?.slice(0, 200)}`);
  const v = body(res);
  assert.ok(v.error?.kind && v.error?.message, `not an error body: ${JSON.stringify(v)}`);
  return v.error;
}

function hit(result, symbol) {
  const h = result.hits.find((h) => h.symbol === symbol);
  assert.ok(h, `${result.query}: no hit ${symbol} among ${result.hits.map((h) => `${h.path}:${h.symbol}`).join(', ')}`);
  return h;
}

const readTree = (root, rel) => fs.readFileSync(path.join(root, rel), 'utf8');

const addZebra = `--- a/server.go
+++ b/server.go
@@ -22,3 +22,6 @@
 type Writer interface {
 \tWrite(p []byte) (int, error)
 }
+
+// Zebra stripes the output.
+func Zebra() {}
`;

// sampleTree: every tool on a writable copy of testdata/gosample, an edit
// seen by the next search, a conflict, malformed and hostile arguments.
async function sampleTree() {
  const c = await start(['--root', SAMPLE, '--in-memory', '--allow-write', '--catalog', CATALOG]);
  assert.equal(c.getServerVersion().name, 'rlm');
  assert.ok(c.getServerCapabilities().tools && c.getServerCapabilities().resources);
  check('initialize');

  const tools = (await c.listTools()).tools;
  assert.deepEqual(tools.map((t) => t.name).sort(),
    ['apply_patch', 'callees', 'callers', 'compile', 'definition', 'explain', 'read', 'search', 'status']);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object', t.name);
    assert.ok(t.description.length > 20, t.name);
    assert.equal(t.annotations.readOnlyHint, t.name !== 'apply_patch', t.name);
  }
  check('list tools');

  const s = await ok(c, 'search', { query: 'what calls handle?' });
  assert.equal(s.class, 'relationship');
  hit(s, 'ServeHTTP');
  assert.match(s.snapshot.fingerprint, /^[0-9a-f]{16}$/);
  assert.ok(s.because.length > 0);
  check('search');

  const d = await ok(c, 'definition', { name: 'handle' });
  const h = hit(d, 'handle');
  assert.equal(h.path, 'server.go');
  assert.ok(h.signature.startsWith('func handle('), h.signature);
  assert.equal(h.doc, 'handle writes a greeting for path.');
  assert.match(h.content_hash, /^xxh64:[0-9a-f]{16}:\d+$/);
  assert.equal(h.id, `server.go:${h.start_line}-${h.end_line}@${h.content_hash}`);
  check('definition');

  hit(await ok(c, 'callers', { name: 'handle' }), 'ServeHTTP');
  check('callers');
  hit(await ok(c, 'callees', { name: 'Retry' }), 'Fetch');
  check('callees');

  const ex = await ok(c, 'explain', { query: 'what calls handle?' });
  assert.equal(ex.class, 'relationship');
  assert.ok(ex.steps.length > 0 && ex.because.length > 0);
  check('explain');

  const r = await ok(c, 'read', { id: h.id });
  const lines = readTree(SAMPLE, 'server.go').split('\n');
  assert.equal(r.text, lines.slice(h.start_line - 1, h.end_line).join('\n') + '\n');
  assert.equal(r.content_hash, h.content_hash);
  const r2 = await ok(c, 'read', { path: 'sub/client.go', start_line: 1, end_line: 3 });
  assert.equal(r2.text, readTree(SAMPLE, 'sub/client.go').split('\n').slice(0, 3).join('\n') + '\n');
  check('read');

  const st = await ok(c, 'status', {});
  assert.equal(st.files, 2);
  assert.equal(st.snapshot.generation, s.snapshot.generation);
  assert.deepEqual(st.not_current, []);
  check('status');

  const cp = await ok(c, 'compile', { query: 'review the diff of my staged changes before I commit', capabilities: ['git.read'] });
  assert.ok(cp.active.some((u) => u.id === 'git_diff'), JSON.stringify(cp.active.map((u) => u.id)));
  assert.ok(cp.rejected.some((u) => u.id === 'git_commit'));
  assert.match(cp.fingerprint, /^[0-9a-f]{16}$/);
  check('compile');

  const resources = (await c.listResources()).resources;
  assert.ok(resources.some((r) => r.uri === 'rlm://snapshot'));
  const rule = resources.find((r) => r.uri === 'rlm://rules/0/retrieval/classify.pl');
  assert.ok(rule, resources.map((r) => r.uri).join(' '));
  const snap = JSON.parse((await c.readResource({ uri: 'rlm://snapshot' })).contents[0].text);
  assert.equal(snap.snapshot.generation, st.snapshot.generation);
  const ruleText = (await c.readResource({ uri: rule.uri })).contents[0].text;
  assert.match(ruleText, /rule_id\(/);
  check('resources');

  // An edit through apply_patch is seen by the next search.
  const p = await ok(c, 'apply_patch', { path: 'server.go', expected_hash: h.content_hash, unified_diff: addZebra });
  assert.equal(p.old_hash, h.content_hash);
  assert.notEqual(p.new_hash, h.content_hash);
  assert.ok(readTree(SAMPLE, 'server.go').includes('func Zebra() {}'));
  const z = hit(await ok(c, 'definition', { name: 'Zebra' }), 'Zebra');
  assert.equal(z.content_hash, p.new_hash);
  assert.equal(z.doc, 'Zebra stripes the output.');
  check('apply_patch seen by the next search');

  // A conflicting patch (the hash of the old bytes) is refused.
  const before = readTree(SAMPLE, 'server.go');
  const e = await fails(c, 'apply_patch', { path: 'server.go', expected_hash: h.content_hash, unified_diff: addZebra });
  assert.deepEqual(e.conflict, { path: 'server.go', expected: h.content_hash, actual: p.new_hash });
  assert.equal(readTree(SAMPLE, 'server.go'), before);
  assert.match((await fails(c, 'read', { id: h.id })).message, /no longer has the bytes/);
  check('conflicting patch refused');

  // Malformed arguments: tool errors with the executor's kind.
  for (const [name, args, kind] of [
    ['search', {}, 'invalid_arguments'],
    ['search', { query: 5 }, 'invalid_arguments'],
    ['search', { query: 'x', limit: 0 }, 'invalid_arguments'],
    ['search', { query: 'x', bogus: true }, 'invalid_arguments'],
    ['search', { query: 'a'.repeat(2 << 20) }, 'too_large'],
    ['definition', { name: 'what calls x' }, 'invalid_arguments'],
    ['read', { id: 'not an id' }, 'invalid_arguments'],
    ['read', { id: h.id, path: 'server.go' }, 'invalid_arguments'],
    ['read', { path: '../../etc/passwd' }, 'handler_failed'],
    ['apply_patch', { path: 'server.go', expected_hash: 'nope', unified_diff: 'x' }, 'invalid_arguments'],
    ['apply_patch', { path: '/etc/passwd', expected_hash: p.new_hash, unified_diff: addZebra }, 'handler_failed'],
  ]) {
    const err = await fails(c, name, args);
    assert.equal(err.kind, kind, `${name}(${JSON.stringify(args).slice(0, 80)}): ${err.message}`);
  }
  const raw = await c.request({ method: 'tools/call', params: { name: 'search', arguments: 'halt.' } }, CallToolResultSchema);
  assert.equal(raw.isError, true);
  assert.equal(body(raw).error.kind, 'invalid_json');
  await assert.rejects(c.callTool({ name: 'rm_rf', arguments: {} }), (err) => err instanceof McpError && /rm_rf/.test(err.message));
  assert.equal(readTree(SAMPLE, 'server.go'), before);
  check('malformed arguments');

  // Hostile text is data: answered or refused clearly, never run.
  const hostile = fs.readFileSync(HOSTILE, 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  assert.ok(hostile.length >= 20);
  let answered = 0;
  for (const q of hostile) {
    for (const [tool, arg] of [['search', 'query'], ['explain', 'query'], ['definition', 'name'], ['callees', 'name'], ['compile', 'query']]) {
      const res = await c.callTool({ name: tool, arguments: { [arg]: q } });
      const v = body(res);
      if (!res.isError) {
        answered++;
        continue;
      }
      assert.ok(['invalid_arguments', 'handler_failed'].includes(v.error.kind), `${tool}(${q}): ${v.error.kind}`);
      assert.notEqual(v.error.message, 'the tool failed', `${tool}(${q}) failed without saying why`);
    }
  }
  assert.ok(answered >= hostile.length * 3, `only ${answered} hostile calls answered`);
  hit(await ok(c, 'search', { query: 'what calls handle?' }), 'ServeHTTP');
  assert.equal(readTree(SAMPLE, 'server.go'), before);
  check('hostile arguments', `${answered} answered as text`);
  await c.close();
}

// negotiate sends a raw initialize through the SDK's stdio transport and
// returns the version the server answers with.
async function negotiate(version) {
  const t = transport(['--root', SAMPLE, '--in-memory', '--embedder', 'none']);
  const reply = new Promise((resolve, reject) => {
    t.onmessage = (m) => { if (m.id === 1) resolve(m); };
    t.onerror = reject;
  });
  await t.start();
  await t.send({ jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  const m = await withTimeout(reply, 60000, `initialize ${version}`);
  await t.close();
  return m.result.protocolVersion;
}

async function protocolVersions() {
  for (const v of ['2025-11-25', '2025-06-18']) {
    assert.equal(await negotiate(v), v);
  }
  check('protocol versions 2025-11-25 and 2025-06-18');
}

// netHTTP: the tools on a real tree served read-only.
async function netHTTP() {
  const c = await start(['--root', NETHTTP, '--in-memory']);
  const names = (await c.listTools()).tools.map((t) => t.name);
  assert.ok(!names.includes('apply_patch') && !names.includes('compile'), names.join(' '));
  const s = await ok(c, 'search', { query: 'what calls readRequest?' });
  assert.equal(s.class, 'relationship');
  assert.ok(s.hits.length > 0 && s.hits.every((h) => h.strategy === 'graph'), JSON.stringify(s.hits.map((h) => h.strategy)));
  const d = await ok(c, 'definition', { name: 'Server', limit: 5 });
  const srv = d.hits.find((h) => h.symbol === 'Server' && h.path === 'server.go');
  assert.ok(srv, JSON.stringify(d.hits.map((h) => h.path + ':' + h.symbol)));
  assert.ok((await ok(c, 'callers', { name: 'ServeHTTP', limit: 5 })).hits.length > 0);
  assert.ok((await ok(c, 'callees', { name: 'Server.Serve', limit: 5 })).hits.length > 0);
  assert.equal((await ok(c, 'explain', { query: 'how are idle connections closed after a timeout' })).class, 'conceptual');
  const f = await ok(c, 'search', { query: 'parse multipart form boundaries', path_prefix: 'internal/', limit: 3 });
  assert.ok(f.hits.every((h) => h.path.startsWith('internal/')));
  const r = await ok(c, 'read', { id: srv.id });
  assert.match(r.text, /type Server struct/);
  const st = await ok(c, 'status', {});
  assert.ok(st.files > 50, `${st.files} files`);
  await assert.rejects(c.callTool({ name: 'apply_patch', arguments: { path: 'server.go', expected_hash: srv.content_hash, unified_diff: 'x' } }), McpError);
  assert.ok(!(await c.callTool({ name: 'read', arguments: { id: srv.id } })).isError);
  await c.close();
  check('net/http read-only', `${st.files} files`);
}

function vector(text, dims) {
  const v = new Array(dims).fill(0);
  for (const w of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (!w) continue;
    let h = 0;
    for (const ch of w) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    v[h % dims] += 1;
  }
  v[0] += 0.01;
  return v;
}

// cancellation: a search held in an embedding request (a fake endpoint
// that never answers queries naming "slowpoke") is cancelled by the
// client; the server must give up its own request promptly.
async function cancellation() {
  let sawSlow, heldClosed;
  const slowSeen = new Promise((r) => { sawSlow = r; });
  const closed = new Promise((r) => { heldClosed = r; });
  const fake = http.createServer((req, res) => {
    let data = '';
    req.on('data', (d) => { data += d; });
    req.on('end', () => {
      const { input, dimensions } = JSON.parse(data);
      const texts = Array.isArray(input) ? input : [input];
      if (texts.some((t) => t.includes('slowpoke'))) {
        res.on('close', () => heldClosed(Date.now()));
        sawSlow(Date.now());
        return; // never answered
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ object: 'list', model: 'fake-embed', usage: { prompt_tokens: 1, total_tokens: 1 },
        data: texts.map((t, i) => ({ object: 'embedding', index: i, embedding: vector(t, dimensions || 16) })) }));
    });
  });
  await new Promise((r) => fake.listen(0, '127.0.0.1', r));
  const port = fake.address().port;
  const c = await start(['--root', SLOW, '--in-memory', '--embedder', 'openai', '--embed-url', `http://127.0.0.1:${port}/v1`,
    '--embed-model', 'fake-embed', '--embed-dims', '16', '--embed-key-env', 'RLM_FAKE_EMBED_KEY'], { RLM_FAKE_EMBED_KEY: 'not-a-secret' });
  const ac = new AbortController();
  const call = c.callTool({ name: 'search', arguments: { query: 'how does the slowpoke greeting get written for a path' } },
    undefined, { signal: ac.signal, timeout: 120000 });
  call.catch(() => {});
  await withTimeout(slowSeen, 30000, 'the search never reached the embedder');
  const t0 = Date.now();
  ac.abort('the user gave up');
  await assert.rejects(call);
  const t1 = await withTimeout(closed, 10000, 'rlm mcp kept its embedding request open after the client cancelled');
  hit(await ok(c, 'definition', { name: 'handle' }), 'handle');
  await c.close();
  fake.close();
  check('cancellation', `the server dropped its request ${t1 - t0} ms after the client cancelled`);
}

await sampleTree();
await protocolVersions();
await netHTTP();
await cancellation();
console.log(JSON.stringify({ checks }));
