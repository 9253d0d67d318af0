/** Ready-to-paste MCP client configurations for ragdesk, over stdio and over HTTP. */
export interface AgentConfigInput {
  /** How to start the stdio server (the bundled binary in the desktop app, `ragdesk mcp` otherwise). */
  stdio: { command: string; args: string[]; env?: Record<string, string> };
  /** The HTTP MCP endpoint, e.g. `http://127.0.0.1:7300/mcp`; null when the server is off. */
  httpUrl: string | null;
  /** Bearer token for HTTP (an API key). */
  token: string;
  name?: string;
}

export interface AgentConfig {
  id: string;
  client: string;
  transport: 'stdio' | 'http';
  /** Where the snippet goes: a catalogue key (the words are the UI's). */
  where: 'connect.whereClaude' | 'connect.whereCursor' | 'connect.whereVscode';
  text: string;
}

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** The stdio command outside the desktop app (`ragdesk serve`'s web console, an npm install): `ragdesk mcp` from PATH. */
export function headlessStdio(dataDir?: string | null): AgentConfigInput['stdio'] {
  return { command: 'ragdesk', args: ['mcp', ...(dataDir ? ['--data-dir', dataDir] : [])] };
}

function stdioEntry(input: AgentConfigInput) {
  const env = input.stdio.env && Object.keys(input.stdio.env).length > 0 ? { env: input.stdio.env } : {};
  return { command: input.stdio.command, args: input.stdio.args, ...env };
}

export function agentConfigs(input: AgentConfigInput): AgentConfig[] {
  const name = input.name ?? 'ragdesk';
  const headers = { Authorization: `Bearer ${input.token}` };
  const out: AgentConfig[] = [
    {
      id: 'claude-desktop',
      client: 'Claude Desktop',
      transport: 'stdio',
      where: 'connect.whereClaude',
      text: json({ mcpServers: { [name]: stdioEntry(input) } }),
    },
    {
      id: 'cursor-stdio',
      client: 'Cursor',
      transport: 'stdio',
      where: 'connect.whereCursor',
      text: json({ mcpServers: { [name]: stdioEntry(input) } }),
    },
    {
      id: 'vscode-stdio',
      client: 'VS Code',
      transport: 'stdio',
      where: 'connect.whereVscode',
      text: json({ servers: { [name]: { type: 'stdio', ...stdioEntry(input) } } }),
    },
  ];
  if (input.httpUrl) {
    out.push(
      {
        id: 'cursor-http',
        client: 'Cursor',
        transport: 'http',
        where: 'connect.whereCursor',
        text: json({ mcpServers: { [name]: { url: input.httpUrl, headers } } }),
      },
      {
        id: 'vscode-http',
        client: 'VS Code',
        transport: 'http',
        where: 'connect.whereVscode',
        text: json({ servers: { [name]: { type: 'http', url: input.httpUrl, headers } } }),
      },
    );
  }
  return out;
}
