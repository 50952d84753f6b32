package io.jdra.apiserver.http;

import io.jdra.apiserver.registry.ResourceType;
import io.jdra.apiserver.storage.ListPage;
import io.jdra.apiserver.storage.StoredObject;
import io.vertx.core.buffer.Buffer;
import java.util.Iterator;

/**
 * Sends a list response. Small lists go out as one body; large ones are streamed in chunks as the
 * client reads them (as kube-apiserver streams large JSON lists), so the server neither copies the
 * whole list into one buffer nor waits for it before the first byte leaves, and the client decodes
 * while the server still encodes. The items are immutable stored versions, so the stream is the
 * page as listed whatever writes follow. Runs on the request's event loop.
 */
final class ListStream {
  /** Lists above this many bytes are streamed. */
  static final long STREAM_ABOVE = 1 << 20;

  private static final int CHUNK = 256 * 1024;

  private final Exchange resp;
  private final ResourceType type;
  private final String version;
  private final Iterator<StoredObject> items;
  private boolean first = true;

  private ListStream(
      Exchange resp, ResourceType type, String version, Iterator<StoredObject> items) {
    this.resp = resp;
    this.type = type;
    this.version = version;
    this.items = items;
  }

  static void send(
      Exchange resp,
      ResourceType t,
      String version,
      ListPage page,
      String continueToken,
      long remaining) {
    if (Encoding.itemBytes(page) <= STREAM_ABOVE) {
      Responses.json(resp, 200, Encoding.list(t, version, page, continueToken, remaining));
      return;
    }
    if (resp.ended() || resp.closed()) {
      return;
    }
    resp.setStatusCode(200);
    resp.putHeader("Content-Type", Responses.JSON);
    resp.putHeader("Cache-Control", "no-cache, private");
    resp.setChunked(true);
    Buffer head = Buffer.buffer(512);
    Encoding.appendListHead(head, t, version, page, continueToken, remaining);
    resp.write(head);
    new ListStream(resp, t, version, page.items().iterator()).pump();
  }

  /** Writes chunks until the connection's queue is full, then resumes when it drains. */
  private void pump() {
    while (!resp.closed()) {
      if (!items.hasNext()) {
        resp.end(Buffer.buffer("]}"));
        return;
      }
      if (resp.writeQueueFull()) {
        resp.drainHandler(this::pump);
        return;
      }
      resp.write(nextChunk());
    }
  }

  private Buffer nextChunk() {
    Buffer b = Buffer.buffer(CHUNK + 4096);
    while (items.hasNext() && b.length() < CHUNK) {
      if (!first) {
        b.appendByte((byte) ',');
      }
      first = false;
      Encoding.appendItem(b, type, version, items.next());
    }
    return b;
  }
}
