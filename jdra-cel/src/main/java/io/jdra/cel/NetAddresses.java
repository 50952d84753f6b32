package io.jdra.cel;

import io.jdra.api.validation.GoFormat;

/**
 * Go's {@code netip.ParseAddr} and {@code netip.ParsePrefix}, which the Kubernetes IP and CIDR
 * libraries use: strict dotted-decimal IPv4 (no leading zeros), IPv6 with an optional embedded IPv4
 * tail and zone, and Go's error texts, so messages read as upstream's.
 */
final class NetAddresses {
  private NetAddresses() {}

  /** A parsed address: 4 or 16 bytes and the zone ("" for none). */
  record Parsed(byte[] bytes, String zone) {}

  /** Thrown with Go's message for a string that does not parse. */
  static final class ParseException extends Exception {
    ParseException(String message) {
      super(message, null, false, false);
    }
  }

  static Parsed parseAddr(String s) throws ParseException {
    for (int i = 0; i < s.length(); i++) {
      switch (s.charAt(i)) {
        case '.' -> {
          byte[] ip = new byte[4];
          parseIPv4Fields(s, 0, s.length(), ip, 0);
          return new Parsed(ip, "");
        }
        case ':' -> {
          return parseIPv6(s);
        }
        case '%' -> throw error(s, "missing IPv6 address", "");
        default -> {}
      }
    }
    throw error(s, "unable to parse IP", "");
  }

  private static ParseException error(String in, String msg, String at) {
    String m = "ParseAddr(" + GoFormat.quote(in) + "): " + msg;
    return new ParseException(at.isEmpty() ? m : m + " (at " + GoFormat.quote(at) + ")");
  }

  private static void parseIPv4Fields(String in, int off, int end, byte[] out, int pos0)
      throws ParseException {
    int val = 0;
    int pos = 0;
    int digits = 0;
    String s = in.substring(off, end);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= '0' && c <= '9') {
        if (digits == 1 && val == 0) {
          throw error(in, "IPv4 field has octet with leading zero", "");
        }
        val = val * 10 + (c - '0');
        digits++;
        if (val > 255) {
          throw error(in, "IPv4 field has value >255", "");
        }
      } else if (c == '.') {
        if (i == 0 || i == s.length() - 1 || s.charAt(i - 1) == '.') {
          throw error(in, "IPv4 field must have at least one digit", s.substring(i));
        }
        if (pos == 3) {
          throw error(in, "IPv4 address too long", "");
        }
        out[pos0 + pos++] = (byte) val;
        val = 0;
        digits = 0;
      } else {
        throw error(in, "unexpected character", s.substring(i));
      }
    }
    if (pos < 3) {
      throw error(in, "IPv4 address too short", "");
    }
    out[pos0 + 3] = (byte) val;
  }

  private static Parsed parseIPv6(String in) throws ParseException {
    String s = in;
    String zone = "";
    int pct = s.indexOf('%');
    if (pct >= 0) {
      zone = s.substring(pct + 1);
      s = s.substring(0, pct);
      if (zone.isEmpty()) {
        throw error(in, "zone must be a non-empty string", "");
      }
    }
    byte[] ip = new byte[16];
    int ellipsis = -1;
    if (s.startsWith("::")) {
      ellipsis = 0;
      s = s.substring(2);
      if (s.isEmpty()) {
        return new Parsed(ip, zone);
      }
    }
    int i = 0;
    while (i < 16) {
      int off = 0;
      int acc = 0;
      for (; off < s.length(); off++) {
        int d = Character.digit(s.charAt(off), 16);
        if (d < 0 || s.charAt(off) > 'f') {
          break;
        }
        acc = (acc << 4) + d;
        if (off > 3) {
          throw error(in, "each group must have 4 or less digits", s);
        }
        if (acc > 0xffff) {
          throw error(in, "IPv6 field has value >=2^16", s);
        }
      }
      if (off == 0) {
        throw error(in, "each colon-separated field must have at least one digit", s);
      }
      if (off < s.length() && s.charAt(off) == '.') {
        if (ellipsis < 0 && i != 12) {
          throw error(
              in, "embedded IPv4 address must replace the final 2 fields of the address", s);
        }
        if (i + 4 > 16) {
          throw error(
              in, "too many hex fields to fit an embedded IPv4 at the end of the address", s);
        }
        int end = in.length() - (zone.isEmpty() ? 0 : zone.length() + 1);
        parseIPv4Fields(in, end - s.length(), end, ip, i);
        s = "";
        i += 4;
        break;
      }
      ip[i] = (byte) (acc >> 8);
      ip[i + 1] = (byte) acc;
      i += 2;
      s = s.substring(off);
      if (s.isEmpty()) {
        break;
      }
      if (s.charAt(0) != ':') {
        throw error(in, "unexpected character, want colon", s);
      } else if (s.length() == 1) {
        throw error(in, "colon must be followed by more characters", s);
      }
      s = s.substring(1);
      if (s.charAt(0) == ':') {
        if (ellipsis >= 0) {
          throw error(in, "multiple :: in address", s);
        }
        ellipsis = i;
        s = s.substring(1);
        if (s.isEmpty()) {
          break;
        }
      }
    }
    if (!s.isEmpty()) {
      throw error(in, "trailing garbage after address", s);
    }
    if (i < 16) {
      if (ellipsis < 0) {
        throw error(in, "address string too short", "");
      }
      int n = 16 - i;
      for (int j = i - 1; j >= ellipsis; j--) {
        ip[j + n] = ip[j];
      }
      for (int j = ellipsis; j < ellipsis + n; j++) {
        ip[j] = 0;
      }
    } else if (ellipsis >= 0) {
      throw error(in, "the :: must expand to at least one field of zeros", s);
    }
    return new Parsed(ip, zone);
  }

  /** Go's {@code netip.ParsePrefix}: the address, then the prefix length in bits. */
  static IpValue.Cidr parsePrefix(String s) throws ParseException {
    int slash = s.lastIndexOf('/');
    if (slash < 0) {
      throw prefixError(s, "no '/'");
    }
    Parsed addr;
    try {
      addr = parseAddr(s.substring(0, slash));
    } catch (ParseException e) {
      throw prefixError(s, e.getMessage());
    }
    if (!addr.zone().isEmpty()) {
      throw prefixError(s, "IPv6 zones cannot be present in a prefix");
    }
    String bitsText = s.substring(slash + 1);
    // Go's Atoi, without the sign and leading zeros it would accept; too large does not parse.
    boolean digitsOnly =
        !bitsText.isEmpty() && bitsText.chars().allMatch(c -> c >= '0' && c <= '9');
    if (!digitsOnly
        || (bitsText.length() > 1 && bitsText.charAt(0) == '0')
        || bitsText.length() > 18) {
      throw prefixError(s, "bad bits after slash: " + GoFormat.quote(bitsText));
    }
    long bits = Long.parseLong(bitsText);
    if (bits > addr.bytes().length * 8L) {
      throw prefixError(s, "prefix length out of range");
    }
    return new IpValue.Cidr(new IpValue(addr.bytes()), (int) bits);
  }

  private static ParseException prefixError(String in, String msg) {
    return new ParseException("netip.ParsePrefix(" + GoFormat.quote(in) + "): " + msg);
  }
}
