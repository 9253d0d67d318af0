import { describe, expect, it } from 'vitest';
import { agentConfigs } from './agent-configs.js';

describe('agent configs', () => {
  const stdio = {
    command: '/Applications/ragdesk.app/Contents/MacOS/ragdesk',
    args: ['/app/out/main/index.js', '--mcp-stdio'],
    env: { ELECTRON_RUN_AS_NODE: '1' },
  };

  it('gives Claude Desktop, Cursor and VS Code configs over stdio and HTTP, as valid JSON', () => {
    const configs = agentConfigs({ stdio, httpUrl: 'http://127.0.0.1:7300/mcp', token: 'rdk_abc' });
    expect(configs.map((c) => c.id)).toEqual(['claude-desktop', 'cursor-stdio', 'vscode-stdio', 'cursor-http', 'vscode-http']);
    const byId = Object.fromEntries(configs.map((c) => [c.id, JSON.parse(c.text)]));
    expect(byId['claude-desktop']).toEqual({ mcpServers: { ragdesk: stdio } });
    expect(byId['vscode-stdio']).toEqual({ servers: { ragdesk: { type: 'stdio', ...stdio } } });
    expect(byId['cursor-http']).toEqual({
      mcpServers: { ragdesk: { url: 'http://127.0.0.1:7300/mcp', headers: { Authorization: 'Bearer rdk_abc' } } },
    });
    expect(byId['vscode-http']).toEqual({
      servers: { ragdesk: { type: 'http', url: 'http://127.0.0.1:7300/mcp', headers: { Authorization: 'Bearer rdk_abc' } } },
    });
  });

  it('leaves out HTTP configs when the server is off, and an empty env', () => {
    const configs = agentConfigs({ stdio: { command: 'ragdesk', args: ['mcp'] }, httpUrl: null, token: 'x' });
    expect(configs.every((c) => c.transport === 'stdio')).toBe(true);
    expect(JSON.parse(configs[0]!.text)).toEqual({ mcpServers: { ragdesk: { command: 'ragdesk', args: ['mcp'] } } });
  });
});
