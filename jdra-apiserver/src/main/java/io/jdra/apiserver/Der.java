package io.jdra.apiserver;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/**
 * The few ASN.1 DER encodings an X.509 certificate needs. The JDK signs and parses certificates but
 * has no public API to build one; this and {@link Certificates} fill that gap without a crypto
 * library.
 */
final class Der {
  static final int BOOLEAN = 0x01;
  static final int INTEGER = 0x02;
  static final int BIT_STRING = 0x03;
  static final int OCTET_STRING = 0x04;
  static final int OID = 0x06;
  static final int UTF8_STRING = 0x0c;
  static final int UTC_TIME = 0x17;
  static final int GENERALIZED_TIME = 0x18;
  static final int SEQUENCE = 0x30;
  static final int SET = 0x31;

  private static final DateTimeFormatter UTC_TIME_FORMAT =
      DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'");
  private static final DateTimeFormatter GENERALIZED_TIME_FORMAT =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'");

  private Der() {}

  /** One element: tag, definite length, content. */
  static byte[] tlv(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
    out.write(tag);
    int n = content.length;
    if (n < 0x80) {
      out.write(n);
    } else {
      int bytes = (Integer.SIZE - Integer.numberOfLeadingZeros(n) + 7) / 8;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(n >>> (8 * i));
      }
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  static byte[] sequence(byte[]... parts) {
    return tlv(SEQUENCE, concat(parts));
  }

  static byte[] set(byte[]... parts) {
    return tlv(SET, concat(parts));
  }

  /** A context-specific constructed (EXPLICIT) tag around an element. */
  static byte[] explicit(int number, byte[] element) {
    return tlv(0xa0 | number, element);
  }

  static byte[] integer(BigInteger v) {
    return tlv(INTEGER, v.toByteArray());
  }

  static byte[] bool(boolean v) {
    return tlv(BOOLEAN, new byte[] {(byte) (v ? 0xff : 0x00)});
  }

  static byte[] octets(byte[] v) {
    return tlv(OCTET_STRING, v);
  }

  /** A BIT STRING of whole bytes (no unused bits). */
  static byte[] bits(byte[] v) {
    byte[] c = new byte[v.length + 1];
    System.arraycopy(v, 0, c, 1, v.length);
    return tlv(BIT_STRING, c);
  }

  static byte[] utf8(String s) {
    return tlv(UTF8_STRING, s.getBytes(StandardCharsets.UTF_8));
  }

  /** RFC 5280: UTCTime through 2049, GeneralizedTime from 2050. */
  static byte[] time(ZonedDateTime t) {
    ZonedDateTime utc = t.withZoneSameInstant(ZoneOffset.UTC).withNano(0);
    if (utc.getYear() < 2050) {
      return tlv(UTC_TIME, UTC_TIME_FORMAT.format(utc).getBytes(StandardCharsets.US_ASCII));
    }
    return tlv(
        GENERALIZED_TIME, GENERALIZED_TIME_FORMAT.format(utc).getBytes(StandardCharsets.US_ASCII));
  }

  /** An OBJECT IDENTIFIER from its dotted form, e.g. {@code 2.5.29.19}. */
  static byte[] oid(String dotted) {
    String[] arcs = dotted.split("\\.");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    base128(out, Long.parseLong(arcs[0]) * 40 + Long.parseLong(arcs[1]));
    for (int i = 2; i < arcs.length; i++) {
      base128(out, Long.parseLong(arcs[i]));
    }
    return tlv(OID, out.toByteArray());
  }

  private static void base128(ByteArrayOutputStream out, long v) {
    int groups = Math.max(1, (Long.SIZE - Long.numberOfLeadingZeros(v) + 6) / 7);
    for (int i = groups - 1; i >= 0; i--) {
      int b = (int) ((v >>> (7 * i)) & 0x7f);
      out.write(i == 0 ? b : b | 0x80);
    }
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
