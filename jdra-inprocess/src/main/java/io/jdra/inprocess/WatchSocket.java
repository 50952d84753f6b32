package io.jdra.inprocess;

import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.WebSocket;
import io.fabric8.kubernetes.client.http.WebSocketResponse;
import io.fabric8.kubernetes.client.http.WebSocketUpgradeResponse;
import io.jdra.apiserver.http.InProcessCall;
import io.jdra.apiserver.http.InProcessResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A watch as fabric8 takes it over a WebSocket, from the API server's HTTP watch stream in memory:
 * each line of the stream (one event) is one text message. fabric8's WebSocket watch hands a
 * message to its decoder whole, where its HTTP-stream reader ({@code WatchHTTPManager}) appends the
 * stream to a {@code StringBuffer} one character at a time and can read only ASCII ({@link
 * AsciiJson}); here the lines are found in the bytes and each becomes a String in one UTF-8 decode.
 *
 * <p>Flow as fabric8's Vert.x WebSocket: the first message goes out unasked, each further one after
 * the listener's {@link #request()} (fabric8 asks when it has decoded and handed on the last one).
 * The server is asked for more bytes as soon as the lines it sent have all been handed to the
 * listener, one batch ahead of it as a socket's receive buffer is: the next event then comes on the
 * server's event loop (which delivers it at once when the listener has asked), and the listener's
 * thread does not hand a request to that loop, waking it, for every event. A slow watcher still
 * makes the server hold back as over a socket: at most one batch of lines waits here. The end of
 * the stream reaches the listener as a close (1000) after the last message, a failure of the server
 * as an error; {@link #sendClose} cancels the stream and reports the close, as the peer's close
 * frame would.
 *
 * <p>Thread-safe: the server's event loop delivers bytes, fabric8's threads ask for messages and
 * close; one thread at a time delivers to the listener, in stream order.
 */
final class WatchSocket implements WebSocket, InProcessResponse {
  private static final byte NEWLINE = '\n';

  private final HttpRequest request;
  private final Listener listener;
  private final CompletableFuture<WebSocketResponse> response = new CompletableFuture<>();
  private final WatchLines lines = new WatchLines();
  private final ArrayDeque<String> messages = new ArrayDeque<>();
  private InProcessCall call;

  /** The listener may take a message (flowing until the first one, as Vert.x's WebSocket). */
  private boolean wanted = true;

  private boolean serverAsked;
  private boolean ended;
  private boolean closed;
  private boolean delivering;
  private boolean again;

  WatchSocket(HttpRequest request, Listener listener) {
    this.request = request;
    this.listener = listener;
  }

  /** Completes with the open socket, or with the refusal fabric8 maps to a handshake failure. */
  CompletableFuture<WebSocketResponse> response() {
    return response;
  }

  // The server's side: on its event loop.

  @Override
  public void head(int status, Map<String, List<String>> headers, InProcessCall call) {
    if (status < 200 || status > 299) {
      call.cancel(); // fabric8 reads no body of a refused WebSocket
      response.complete(
          new WebSocketResponse(
              new WebSocketUpgradeResponse(request, status, headers),
              new IOException("watch refused with HTTP status " + status)));
      return;
    }
    synchronized (this) {
      this.call = call;
    }
    listener.onOpen(this);
    response.complete(new WebSocketResponse(new WebSocketUpgradeResponse(request), this));
    deliver();
  }

  @Override
  public void chunks(List<ByteBuffer> data) {
    synchronized (this) {
      serverAsked = false;
      if (!closed) {
        for (ByteBuffer chunk : data) {
          lines.split(chunk, messages);
        }
      }
    }
    deliver();
  }

  @Override
  public void end() {
    synchronized (this) {
      ended = true;
    }
    deliver();
  }

  @Override
  public void failed(Throwable cause) {
    if (response.completeExceptionally(cause)) {
      return; // before the head: fabric8 retries the connection
    }
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      messages.clear();
    }
    listener.onError(this, cause);
  }

  // fabric8's side: any thread.

  @Override
  public void request() {
    synchronized (this) {
      wanted = true;
    }
    deliver();
  }

  @Override
  public boolean sendClose(int code, String reason) {
    InProcessCall c;
    synchronized (this) {
      if (closed) {
        return false;
      }
      closed = true;
      messages.clear();
      c = call;
    }
    if (c != null) {
      c.cancel();
    }
    listener.onClose(this, code, reason);
    return true;
  }

  @Override
  public boolean send(ByteBuffer buffer) {
    return false; // a watch sends nothing
  }

  @Override
  public long queueSize() {
    return 0;
  }

  /**
   * Hands the next message, the close or a request for more bytes on, while there is something to
   * do; a call while another thread is at it leaves the work to that thread.
   */
  private void deliver() {
    synchronized (this) {
      if (delivering) {
        again = true;
        return;
      }
      delivering = true;
    }
    while (true) {
      String message = null;
      boolean close = false;
      InProcessCall ask = null;
      synchronized (this) {
        again = false;
        if (!closed && call != null) {
          if (wanted && !messages.isEmpty()) {
            message = messages.poll();
            wanted = false;
          } else if (wanted && ended) {
            closed = true;
            close = true;
          } else if (messages.isEmpty() && !ended && !serverAsked) {
            serverAsked = true;
            ask = call;
          }
        }
        if (message == null && !close && ask == null && !again) {
          delivering = false;
          return;
        }
      }
      if (message != null) {
        listener.onMessage(this, message);
      } else if (close) {
        listener.onClose(this, 1000, "");
      } else if (ask != null) {
        ask.request();
      }
    }
  }

  /** Splits a stream into its lines at '\n' bytes (never part of a multi-byte UTF-8 character). */
  static final class WatchLines {
    private byte[] partial = new byte[0];
    private int partialLength;

    /** Adds the complete lines of {@code chunk}, after what earlier chunks left, to {@code out}. */
    void split(ByteBuffer chunk, ArrayDeque<String> out) {
      ByteBuffer in = chunk.duplicate();
      while (in.hasRemaining()) {
        int start = in.position();
        int newline = indexOf(in, start);
        if (newline < 0) {
          keep(in, start, in.limit());
          return;
        }
        if (partialLength > 0) {
          keep(in, start, newline);
          add(out, partial, 0, partialLength);
          partialLength = 0;
        } else if (in.hasArray()) {
          add(out, in.array(), in.arrayOffset() + start, newline - start);
        } else {
          byte[] copy = new byte[newline - start];
          in.get(start, copy);
          add(out, copy, 0, copy.length);
        }
        in.position(newline + 1);
      }
    }

    private static int indexOf(ByteBuffer in, int from) {
      for (int i = from; i < in.limit(); i++) {
        if (in.get(i) == NEWLINE) {
          return i;
        }
      }
      return -1;
    }

    private void keep(ByteBuffer in, int from, int to) {
      int n = to - from;
      if (partialLength + n > partial.length) {
        partial = Arrays.copyOf(partial, Math.max(partialLength + n, 2 * partial.length));
      }
      in.get(from, partial, partialLength, n);
      partialLength += n;
    }

    /** A blank line carries no event: a WebSocket has no empty messages to give fabric8. */
    private static void add(ArrayDeque<String> out, byte[] bytes, int offset, int length) {
      if (length > 0) {
        out.add(new String(bytes, offset, length, StandardCharsets.UTF_8));
      }
    }
  }
}
