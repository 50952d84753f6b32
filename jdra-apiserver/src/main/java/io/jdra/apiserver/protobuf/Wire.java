package io.jdra.apiserver.protobuf;

import java.nio.charset.StandardCharsets;

/**
 * A cursor over the bytes of one protobuf message. Malformed input fails with {@link Malformed}
 * carrying the words of Go's generated unmarshallers ("unexpected EOF", "proto: integer overflow"),
 * since clients see those in kube-apiserver's 400s; it is hand-written (not protobuf-java's reader)
 * because those checks must be Go's: a varint longer than ten bytes fails, a length past the end is
 * an unexpected EOF. Not thread-safe: one per message read.
 */
final class Wire {
  static final int VARINT = 0;
  static final int FIXED64 = 1;
  static final int LENGTH = 2;
  static final int START_GROUP = 3;
  static final int END_GROUP = 4;
  static final int FIXED32 = 5;

  /** Malformed bytes; the message is Go's. */
  static final class Malformed extends RuntimeException {
    Malformed(String message) {
      super(message, null, false, false);
    }
  }

  /** A length-delimited value: a view of the enclosing buffer. */
  record Slice(byte[] buf, int off, int len) {
    String utf8() {
      return new String(buf, off, len, StandardCharsets.UTF_8);
    }

    byte[] copy() {
      return java.util.Arrays.copyOfRange(buf, off, off + len);
    }

    Wire wire() {
      return new Wire(this);
    }
  }

  private final byte[] buf;
  private final int end;
  private int pos;

  Wire(Slice slice) {
    this.buf = slice.buf();
    this.pos = slice.off();
    this.end = slice.off() + slice.len();
  }

  boolean atEnd() {
    return pos >= end;
  }

  long varint() {
    long v = 0;
    for (int shift = 0; ; shift += 7) {
      if (shift >= 64) {
        throw new Malformed("proto: integer overflow");
      }
      if (pos >= end) {
        throw new Malformed("unexpected EOF");
      }
      byte b = buf[pos++];
      v |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
  }

  long fixed64() {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v |= (long) (next() & 0xFF) << (8 * i);
    }
    return v;
  }

  int fixed32() {
    int v = 0;
    for (int i = 0; i < 4; i++) {
      v |= (next() & 0xFF) << (8 * i);
    }
    return v;
  }

  Slice bytes() {
    long n = varint();
    if (n < 0 || n > Integer.MAX_VALUE) {
      throw new Malformed("proto: negative length found during unmarshaling");
    }
    if (n > end - pos) {
      throw new Malformed("unexpected EOF");
    }
    Slice s = new Slice(buf, pos, (int) n);
    pos += (int) n;
    return s;
  }

  /** Skips an unknown field's value, groups included, as Go's generated code does. */
  void skip(int wireType) {
    int depth = 0;
    int wt = wireType;
    while (true) {
      switch (wt) {
        case VARINT -> varint();
        case FIXED64 -> fixed64();
        case LENGTH -> bytes();
        case START_GROUP -> depth++;
        case END_GROUP -> {
          if (--depth < 0) {
            throw new Malformed("proto: unexpected end of group");
          }
        }
        case FIXED32 -> fixed32();
        default -> throw new Malformed("proto: illegal wireType " + wt);
      }
      if (depth == 0) {
        return;
      }
      wt = (int) (varint() & 7);
    }
  }

  private byte next() {
    if (pos >= end) {
      throw new Malformed("unexpected EOF");
    }
    return buf[pos++];
  }
}
