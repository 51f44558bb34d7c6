/**
 * MCP over a command's own input and output: one JSON-RPC message per line, as the SDK's stdio transport
 * speaks it, but on the streams the context gives (the SDK's reads the process's own), so that a test serves
 * a session in process. The end of the input ends the session once every request read from it is answered:
 * a client that writes its requests and closes its end still gets every answer.
 */
import { Buffer } from "node:buffer";
// @ts-types="@modelcontextprotocol/sdk/shared/stdio"
import { ReadBuffer } from "@modelcontextprotocol/sdk/shared/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { CommandContext } from "../cli/context.ts";

type Id = string | number;

const requestId = (message: JSONRPCMessage): Id | undefined =>
  "method" in message && "id" in message ? message.id : undefined;

const responseId = (message: JSONRPCMessage): Id | undefined =>
  !("method" in message) && "id" in message ? message.id : undefined;

/** The request a client's cancellation names: the SDK sends no answer to it. */
function cancelledId(message: JSONRPCMessage): Id | undefined {
  if (!("method" in message) || message.method !== "notifications/cancelled") return undefined;
  const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Requests read and not answered yet. */
  readonly #unanswered = new Set<Id>();
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  #inputEnded = false;
  #closed = false;

  constructor(
    private readonly input: CommandContext["stdin"],
    private readonly output: CommandContext["stdout"],
  ) {}

  start(): Promise<void> {
    this.#reader = this.input.readable.getReader();
    void this.#read(this.#reader);
    return Promise.resolve();
  }

  async #read(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    const buffer = new ReadBuffer();
    const dispatch = () => {
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = buffer.readMessage();
        } catch (error) {
          // The line was not a message; the ones after it may be.
          this.onerror?.(error instanceof Error ? error : new Error(String(error)));
          continue;
        }
        if (message === null) return;
        const id = requestId(message);
        if (id !== undefined) this.#unanswered.add(id);
        const cancelled = cancelledId(message);
        if (cancelled !== undefined) this.#unanswered.delete(cancelled);
        this.onmessage?.(message);
      }
    };
    /** Whether the input so far ends inside a line that holds more than white space. */
    let open = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          // The last message may end with the input rather than with a line break: it is a message all the same.
          if (open) buffer.append(Buffer.from("\n"));
          dispatch();
          break;
        }
        const lastBreak = value.lastIndexOf(0x0a);
        const tail = value.subarray(lastBreak + 1);
        // A tab, a line feed, a carriage return or a space each: white space after the last message.
        const blank = tail.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d);
        open = lastBreak === -1 ? open || !blank : !blank;
        buffer.append(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
        dispatch();
      }
    } catch (error) {
      // Closing cancels the read; anything else is the input failing, which ends the session as its end does.
      if (!this.#closed) this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
    this.#inputEnded = true;
    await this.#closeWhenAnswered();
  }

  send(message: JSONRPCMessage): Promise<void> {
    // One line: the context writes each message whole and ends it.
    this.output(JSON.stringify(message));
    const id = responseId(message);
    if (id !== undefined) this.#unanswered.delete(id);
    return this.#closeWhenAnswered();
  }

  async #closeWhenAnswered(): Promise<void> {
    if (this.#inputEnded && this.#unanswered.size === 0) await this.close();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#reader?.cancel().catch(() => {});
    this.onclose?.();
  }
}
