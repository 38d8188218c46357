// A host stand-in: the official TypeScript SDK's client, run as a host runs a server (through
// `mcplens proxy`, or straight). Commands come on stdin, one JSON object a line; each answer is
// one JSON line on stdout: {"ok": result} or {"error": message}.
//   node sdk_host.cjs stdio <command> [args...]     node sdk_host.cjs http <url>
// With HOST_SAMPLING=1 the host offers sampling and answers every request "from the host".
const path = require("path");
const readline = require("readline");
const { createRequire } = require("module");
const peers = createRequire(path.join(__dirname, "..", "peers", "package.json"));
const { Client } = peers("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = peers("@modelcontextprotocol/sdk/client/stdio.js");
const { StreamableHTTPClientTransport } = peers("@modelcontextprotocol/sdk/client/streamableHttp.js");
const { CreateMessageRequestSchema } = peers("@modelcontextprotocol/sdk/types.js");

async function main() {
  const [mode, first, ...rest] = process.argv.slice(2);
  const transport =
    mode === "http"
      ? new StreamableHTTPClientTransport(new URL(first))
      : new StdioClientTransport({ command: first, args: rest, env: process.env, stderr: process.env.HOST_STDERR || "ignore" });
  const sampling = process.env.HOST_SAMPLING === "1";
  const client = new Client({ name: "sdk-host", version: "1.0.0" }, { capabilities: sampling ? { sampling: {} } : {} });
  if (sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      model: "host",
      role: "assistant",
      content: { type: "text", text: "from the host" },
    }));
  }
  const say = (o) => process.stdout.write(JSON.stringify(o) + "\n");
  await client.connect(transport);
  say({ ok: { connected: client.getServerVersion() } });
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const c = JSON.parse(line);
    try {
      if (c.op === "list") say({ ok: await client.listTools() });
      else if (c.op === "call")
        say({ ok: await client.callTool({ name: c.name, arguments: c.arguments || {} }, undefined, { timeout: c.timeout || 20000 }) });
      else if (c.op === "ping") say({ ok: await client.ping() });
      else if (c.op === "close") break;
    } catch (e) {
      say({ error: String(e && e.message ? e.message : e) });
    }
  }
  await client.close();
  process.exit(0);
}
main().catch((e) => {
  process.stdout.write(JSON.stringify({ error: String(e) }) + "\n");
  process.exit(1);
});
