package io.jdra.apiserver.http;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * Receives the answer to an {@link InProcessRequest}. Every method runs on an API server event
 * loop: implementations hand work elsewhere rather than block there (a blocking wait for another
 * request could wait for this very loop).
 */
public interface InProcessResponse {
  /** The status and headers, once, before any body; {@code call} asks for the body. */
  void head(int status, Map<String, List<String>> headers, InProcessCall call);

  /** Body bytes, only after {@link InProcessCall#request()} asked for them; one call per ask. */
  void chunks(List<ByteBuffer> data);

  /** The body is complete. */
  void end();

  /** The server abandoned the response (a failure after its head was sent) or stopped. */
  void failed(Throwable cause);
}
