/** An MCP client connected in memory to an MCP server over a test app. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../../src/mcp/server.js';

export async function connectedClient(deps: Parameters<typeof createMcpServer>[0], name: string): Promise<Client> {
  const server = await createMcpServer(deps);
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name, version: '1' });
  await client.connect(b);
  return client;
}
