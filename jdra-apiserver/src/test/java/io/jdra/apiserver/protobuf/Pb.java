package io.jdra.apiserver.protobuf;

import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Builds protobuf messages field by field for tests, with protobuf-java's writer. */
final class Pb {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final CodedOutputStream out = CodedOutputStream.newInstance(bytes);

  static Pb msg() {
    return new Pb();
  }

  /** A Kubernetes protobuf body: the magic, then a runtime.Unknown holding {@code object}. */
  static byte[] envelope(String apiVersion, String kind, Pb object) {
    Pb unknown =
        msg()
            .msg(1, msg().str(1, apiVersion).str(2, kind))
            .bytes(2, object.bytes())
            .str(3, "")
            .str(4, "");
    byte[] u = unknown.bytes();
    byte[] body = new byte[u.length + 4];
    body[0] = 'k';
    body[1] = '8';
    body[2] = 's';
    System.arraycopy(u, 0, body, 4, u.length);
    return body;
  }

  Pb str(int field, String s) {
    return bytes(field, s.getBytes(StandardCharsets.UTF_8));
  }

  Pb bytes(int field, byte[] b) {
    return write(() -> out.writeByteArray(field, b));
  }

  Pb varint(int field, long v) {
    return write(() -> out.writeInt64(field, v));
  }

  Pb bool(int field, boolean v) {
    return write(() -> out.writeBool(field, v));
  }

  Pb msg(int field, Pb m) {
    return bytes(field, m.bytes());
  }

  /** A map entry (key 1, string value 2). */
  Pb entry(int field, String key, String value) {
    return msg(field, msg().str(1, key).str(2, value));
  }

  /** A map entry whose value is a message (Quantity, IntOrString, a struct). */
  Pb entry(int field, String key, Pb value) {
    return msg(field, msg().str(1, key).msg(2, value));
  }

  /** Repeated varints packed into one length-delimited field. */
  Pb packed(int field, long... values) {
    Pb p = msg();
    for (long v : values) {
      p.write(() -> p.out.writeInt64NoTag(v));
    }
    return bytes(field, p.bytes());
  }

  /** Raw bytes appended as they are (malformed input). */
  Pb raw(byte... b) {
    return write(() -> out.writeRawBytes(b));
  }

  byte[] bytes() {
    try {
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private interface Write {
    void run() throws IOException;
  }

  private Pb write(Write w) {
    try {
      w.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }
}
