package io.jdra.api.validation;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/** Upstream {@code IsValidInterfaceAddress}: an IP address with prefix length, canonical form. */
final class InterfaceAddresses {
  private InterfaceAddresses() {}

  static List<FieldError> validate(String value, FieldPath path) {
    String v = MetaValidation.nz(value);
    String canonical = canonical(v);
    if (canonical == null) {
      return List.of(
          FieldError.invalid(
              path,
              v,
              "must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)"));
    }
    if (!canonical.equals(v)) {
      return List.of(
          FieldError.invalid(
              path, v, "must be in canonical form (" + GoFormat.quote(canonical) + ")"));
    }
    return List.of();
  }

  /** The canonical {@code ip/prefix} form, or {@code null} when {@code v} is not a CIDR value. */
  static String canonical(String v) {
    int slash = v.indexOf('/');
    if (slash < 0) {
      return null;
    }
    String addr = v.substring(0, slash);
    String maskText = v.substring(slash + 1);
    if (maskText.isEmpty()
        || maskText.length() > 3
        || !maskText.chars().allMatch(Character::isDigit)) {
      return null;
    }
    int mask = Integer.parseInt(maskText);
    byte[] ip = addr.contains(":") ? parse6(addr) : parse4(addr);
    if (ip == null || mask > ip.length * 8) {
      return null;
    }
    if (ip.length == 16 && isV4Mapped(ip)) {
      byte[] v4 = {ip[12], ip[13], ip[14], ip[15]};
      return format4(v4) + "/" + (mask > 32 ? mask - 96 : mask);
    }
    return (ip.length == 4 ? format4(ip) : format6(ip)) + "/" + mask;
  }

  private static byte[] parse4(String addr) {
    String[] parts = addr.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    byte[] b = new byte[4];
    for (int i = 0; i < 4; i++) {
      String p = parts[i];
      if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(c -> c >= '0' && c <= '9')) {
        return null;
      }
      int n = Integer.parseInt(p);
      if (n > 255) {
        return null;
      }
      b[i] = (byte) n;
    }
    return b;
  }

  private static byte[] parse6(String addr) {
    if (!addr.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == ':' || c == '.')
        || !addr.chars().allMatch(c -> c < 128)) {
      return null;
    }
    try {
      InetAddress a = InetAddress.getByName("[" + addr + "]");
      byte[] b = a.getAddress();
      if (b.length == 4) {
        // Java folds ::ffff:a.b.c.d into an IPv4 address; keep the mapped form.
        byte[] m = new byte[16];
        m[10] = (byte) 0xff;
        m[11] = (byte) 0xff;
        System.arraycopy(b, 0, m, 12, 4);
        return m;
      }
      return a instanceof Inet6Address ? b : null;
    } catch (UnknownHostException | IllegalArgumentException e) {
      return null;
    }
  }

  private static boolean isV4Mapped(byte[] ip) {
    for (int i = 0; i < 10; i++) {
      if (ip[i] != 0) {
        return false;
      }
    }
    return ip[10] == (byte) 0xff && ip[11] == (byte) 0xff;
  }

  private static String format4(byte[] b) {
    return (b[0] & 0xff) + "." + (b[1] & 0xff) + "." + (b[2] & 0xff) + "." + (b[3] & 0xff);
  }

  /** RFC 5952 text, as Go's {@code net.IP.String}. */
  private static String format6(byte[] b) {
    int[] groups = new int[8];
    for (int i = 0; i < 8; i++) {
      groups[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
    }
    int bestStart = -1;
    int bestLen = 0;
    for (int i = 0; i < 8; ) {
      if (groups[i] != 0) {
        i++;
        continue;
      }
      int j = i;
      while (j < 8 && groups[j] == 0) {
        j++;
      }
      if (j - i > bestLen && j - i >= 2) {
        bestStart = i;
        bestLen = j - i;
      }
      i = j;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        sb.append("::");
        i += bestLen - 1;
        continue;
      }
      if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
        sb.append(':');
      }
      sb.append(Integer.toHexString(groups[i]));
    }
    return sb.toString();
  }
}
