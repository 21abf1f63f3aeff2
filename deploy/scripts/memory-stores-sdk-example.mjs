// The official TypeScript SDK (@anthropic-ai/sdk) against a Team Memory server: the snippet of
// docs/server.md "Official SDKs". Run through memory-stores-sdk-example.sh, which installs the SDK.
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic({
  baseURL: process.env.TMEM_URL, // e.g. https://memory.example.com (no /v1)
  authToken: process.env.TMEM_TOKEN, // a static token or a GitHub token; sent as Authorization: Bearer
});
const repo = process.env.TMEM_REPO; // owner/name: the repository whose team memory this is

// One store per repository; creating it again returns the same store.
const store = await client.beta.memoryStores.create({ name: repo, metadata: { repo } });
console.log('store', store.id, store.name);

const memory = await client.beta.memoryStores.memories.create(store.id, {
  path: '/testing/sdk-example.md',
  content: 'Written by the TypeScript SDK example.\n',
});
console.log('created', memory.id, memory.path, memory.content_sha256);

// An update that names the content it replaces; a stale checksum is a 409.
const updated = await client.beta.memoryStores.memories.update(memory.id, {
  memory_store_id: store.id,
  content: 'Written, then updated, by the TypeScript SDK example.\n',
  precondition: { type: 'content_sha256', content_sha256: memory.content_sha256 },
});
console.log('updated', updated.memory_version_id);

for await (const item of client.beta.memoryStores.memories.list(store.id, {
  path_prefix: '/testing/',
  view: 'basic',
})) {
  console.log('listed', item.type, item.path);
}

await client.beta.memoryStores.memories.delete(memory.id, { memory_store_id: store.id });
console.log('deleted', memory.id);
