/**
 * One MCP server for every `/mcp` request. The SDK's Streamable HTTP transport must be built per
 * request when stateless (it refuses reuse, since JSON-RPC ids of different clients collide), and
 * a server per request means registering every tool again: that made `/mcp` several times slower
 * than the HTTP request a tool makes. Here one long-lived server is connected to this transport,
 * which gives each incoming request an id of its own, and maps the answer back to the HTTP request
 * and the client's id. No session is kept, so any process of `serve --workers N` can answer any
 * request. Messages the server sends unasked (notifications) have no stream to go to in a JSON
 * answer and are dropped, as the SDK's transport drops them in its JSON mode.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';

// By shape, not by the SDK's guards (a schema parse each): what the server sends is its own, and
// what dispatch is handed was parsed as JSON-RPC already (http.ts).
const isRequest = (m: JSONRPCMessage): m is JSONRPCRequest => 'method' in m && 'id' in m;
const isResponse = (m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId } => 'id' in m && !('method' in m);

interface Pending {
  id: RequestId;
  resolve(message: JSONRPCMessage): void;
}

export class SharedJsonTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  private next = 0;
  private readonly pending = new Map<string, Pending>();
  private closed = false;

  async start(): Promise<void> {}

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const p of this.pending.values()) p.resolve({ jsonrpc: '2.0', id: p.id, error: { code: -32000, message: 'the server is shutting down' } });
    this.pending.clear();
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!isResponse(message)) return;
    const key = String(message.id);
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    p.resolve({ ...message, id: p.id });
  }

  /** In flight: requests handed to the server and not yet answered. */
  get inFlight(): number {
    return this.pending.size;
  }

  /**
   * Hands the messages of one POST to the server and resolves with the answers to its requests,
   * in their order (none when it held only notifications or responses). `abandoned` resolves when
   * the client goes away: its requests still in flight are then cancelled in the server.
   */
  dispatch(messages: JSONRPCMessage[], extra: MessageExtraInfo, abandoned: Promise<void>): Promise<JSONRPCMessage[]> {
    if (this.closed) return Promise.resolve(messages.filter(isRequest).map((m) => ({ jsonrpc: '2.0' as const, id: m.id, error: { code: -32000, message: 'the server is shutting down' } })));
    const answers: Promise<JSONRPCMessage>[] = [];
    const mine: string[] = [];
    for (const m of messages) {
      if (!isRequest(m)) {
        // A client's cancellation names its own id, which may be another client's too: the
        // server never sees it (an abandoned request is cancelled below instead).
        if (!('method' in m) || m.method !== 'notifications/cancelled') this.onmessage?.(m, extra);
        continue;
      }
      const key = `b${(this.next++).toString(36)}`;
      mine.push(key);
      answers.push(new Promise<JSONRPCMessage>((resolve) => this.pending.set(key, { id: m.id, resolve })));
      this.onmessage?.({ ...m, id: key }, extra);
    }
    void abandoned.then(() => {
      for (const key of mine) {
        if (!this.pending.delete(key)) continue;
        this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: key, reason: 'the client went away' } });
      }
    });
    return Promise.all(answers);
  }
}
