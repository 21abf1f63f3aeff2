// The official TypeScript MCP client against the real tmem, for McpClientIT: connects over stdio
// or Streamable HTTP as the plan (a JSON file, argv[2]) says, lists the tools and resources, makes
// the plan's calls in order, and prints what it saw as one JSON object on stdout.
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
const transport =
  plan.transport === "stdio"
    ? new StdioClientTransport({
        command: plan.command[0],
        args: plan.command.slice(1),
        cwd: plan.cwd,
        env: plan.env,
        stderr: "inherit",
      })
    : new StreamableHTTPClientTransport(new URL(plan.url), {
        requestInit: { headers: { Authorization: `Bearer ${plan.token}` } },
      });
const client = new Client({ name: "tmem-mcp-client-it", version: "1.0.0" });
await client.connect(transport);
const seen = {
  server: client.getServerVersion(),
  tools: (await client.listTools()).tools.map((tool) => ({
    name: tool.name,
    readOnly: tool.annotations?.readOnlyHint === true,
    required: tool.inputSchema.required ?? [],
  })),
  resources: [],
  calls: [],
};
if (client.getServerCapabilities()?.resources) {
  for (const resource of (await client.listResources()).resources) {
    const read = await client.readResource({ uri: resource.uri });
    seen.resources.push({ uri: resource.uri, text: read.contents[0]?.text ?? "" });
  }
}
for (const call of plan.calls) {
  const result = await client.callTool({ name: call.name, arguments: call.arguments });
  seen.calls.push({
    name: call.name,
    isError: result.isError === true,
    text: result.content.map((part) => part.text ?? "").join(""),
  });
}
await client.close();
process.stdout.write(JSON.stringify(seen) + "\n");
