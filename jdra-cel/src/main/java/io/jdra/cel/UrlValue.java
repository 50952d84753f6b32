package io.jdra.cel;

import dev.cel.common.types.CelType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.values.CelValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A URL as the CEL type {@code kubernetes.URL} of the Kubernetes URL library, parsed as Go's {@code
 * net/url} parses it ({@code ParseRequestURI} to accept, {@code Parse} for the parts), with Go's
 * error texts.
 */
final class UrlValue extends CelValue {
  static final OpaqueType TYPE = OpaqueType.create("kubernetes.URL");

  private final String scheme;
  private final String host;
  private final String path;
  private final String rawPath;
  private final String rawQuery;

  private UrlValue(String scheme, String host, String path, String rawPath, String rawQuery) {
    this.scheme = scheme;
    this.host = host;
    this.path = path;
    this.rawPath = rawPath;
    this.rawQuery = rawQuery;
  }

  /** Thrown with Go's message. */
  static final class ParseException extends Exception {
    ParseException(String message) {
      super(message, null, false, false);
    }
  }

  private enum Mode {
    PATH,
    HOST,
    ZONE,
    USER_PASSWORD,
    QUERY_COMPONENT,
    FRAGMENT
  }

  /** Go's {@code url.ParseRequestURI}: an absolute URI or an absolute path, no fragment split. */
  static UrlValue parseRequestUri(String raw) throws ParseException {
    try {
      return parse(raw, true);
    } catch (ParseException e) {
      throw wrap(raw, e);
    }
  }

  /** Go's {@code url.Parse}: the fragment is split off first and must unescape. */
  static UrlValue parseUrl(String raw) throws ParseException {
    int hash = raw.indexOf('#');
    try {
      UrlValue u = parse(hash < 0 ? raw : raw.substring(0, hash), false);
      if (hash >= 0) {
        unescape(raw.substring(hash + 1), Mode.FRAGMENT);
      }
      return u;
    } catch (ParseException e) {
      throw wrap(raw, e);
    }
  }

  private static ParseException wrap(String raw, ParseException e) {
    return new ParseException("parse " + GoFormatAccess.quote(raw) + ": " + e.getMessage());
  }

  private static UrlValue parse(String raw, boolean viaRequest) throws ParseException {
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        throw new ParseException("net/url: invalid control character in URL");
      }
    }
    if (raw.isEmpty() && viaRequest) {
      throw new ParseException("empty url");
    }
    if (raw.equals("*")) {
      return new UrlValue("", "", "*", "", "");
    }
    String scheme = "";
    String rest = raw;
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
        continue;
      }
      if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
        if (i == 0) {
          break;
        }
        continue;
      }
      if (c == ':') {
        if (i == 0) {
          throw new ParseException("missing protocol scheme");
        }
        scheme = raw.substring(0, i).toLowerCase(java.util.Locale.ROOT);
        rest = raw.substring(i + 1);
      }
      break;
    }
    String rawQuery = "";
    if (rest.endsWith("?") && rest.indexOf('?') == rest.length() - 1) {
      rest = rest.substring(0, rest.length() - 1);
    } else {
      int q = rest.indexOf('?');
      if (q >= 0) {
        rawQuery = rest.substring(q + 1);
        rest = rest.substring(0, q);
      }
    }
    if (!rest.startsWith("/")) {
      if (!scheme.isEmpty()) {
        // Rootless paths are opaque: no host, no path.
        return new UrlValue(scheme, "", "", "", rawQuery);
      }
      if (viaRequest) {
        throw new ParseException("invalid URI for request");
      }
      int slash = rest.indexOf('/');
      if ((slash < 0 ? rest : rest.substring(0, slash)).contains(":")) {
        throw new ParseException("first path segment in URL cannot contain colon");
      }
    }
    String host = "";
    if ((!scheme.isEmpty() || (!viaRequest && !rest.startsWith("///"))) && rest.startsWith("//")) {
      String authority = rest.substring(2);
      rest = "";
      int slash = authority.indexOf('/');
      if (slash >= 0) {
        rest = authority.substring(slash);
        authority = authority.substring(0, slash);
      }
      host = parseAuthority(authority);
    }
    String path = unescape(rest, Mode.PATH);
    String rawPath = rest.equals(escape(path, Mode.PATH)) ? "" : rest;
    return new UrlValue(scheme, host, path, rawPath, rawQuery);
  }

  private static String parseAuthority(String authority) throws ParseException {
    int at = authority.lastIndexOf('@');
    String host = parseHost(at < 0 ? authority : authority.substring(at + 1));
    if (at >= 0) {
      String userinfo = authority.substring(0, at);
      for (int i = 0; i < userinfo.length(); i++) {
        char c = userinfo.charAt(i);
        if (!(isAlnum(c) || "-._:~!$&'()*+,;=%@".indexOf(c) >= 0)) {
          throw new ParseException("net/url: invalid userinfo");
        }
      }
      int colon = userinfo.indexOf(':');
      unescape(colon < 0 ? userinfo : userinfo.substring(0, colon), Mode.USER_PASSWORD);
      if (colon >= 0) {
        unescape(userinfo.substring(colon + 1), Mode.USER_PASSWORD);
      }
    }
    return host;
  }

  private static String parseHost(String host) throws ParseException {
    if (host.startsWith("[")) {
      int close = host.lastIndexOf(']');
      if (close < 0) {
        throw new ParseException("missing ']' in host");
      }
      String colonPort = host.substring(close + 1);
      if (!validOptionalPort(colonPort)) {
        throw new ParseException("invalid port " + GoFormatAccess.quote(colonPort) + " after host");
      }
      int zone = host.substring(0, close).indexOf("%25");
      if (zone >= 0) {
        return unescape(host.substring(0, zone), Mode.HOST)
            + unescape(host.substring(zone, close), Mode.ZONE)
            + unescape(host.substring(close), Mode.HOST);
      }
    } else {
      int colon = host.lastIndexOf(':');
      if (colon >= 0 && !validOptionalPort(host.substring(colon))) {
        throw new ParseException(
            "invalid port " + GoFormatAccess.quote(host.substring(colon)) + " after host");
      }
    }
    return unescape(host, Mode.HOST);
  }

  private static boolean validOptionalPort(String port) {
    if (port.isEmpty()) {
      return true;
    }
    if (port.charAt(0) != ':') {
      return false;
    }
    for (int i = 1; i < port.length(); i++) {
      if (port.charAt(i) < '0' || port.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static boolean isAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }

  private static int unhex(char c) {
    return Character.digit(c, 16) >= 0 && c < 0x80 ? Character.digit(c, 16) : -1;
  }

  /** Go's {@code unescape}: percent-decoding with its per-part rules, on UTF-8 bytes. */
  private static String unescape(String s, Mode mode) throws ParseException {
    byte[] in = s.getBytes(StandardCharsets.UTF_8);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(in.length);
    for (int i = 0; i < in.length; i++) {
      int c = in[i] & 0xff;
      if (c == '%') {
        if (i + 2 >= in.length || unhex((char) in[i + 1]) < 0 || unhex((char) in[i + 2]) < 0) {
          String bad = new String(in, i, Math.min(3, in.length - i), StandardCharsets.UTF_8);
          throw new ParseException("invalid URL escape " + GoFormatAccess.quote(bad));
        }
        if (mode == Mode.HOST
            && unhex((char) in[i + 1]) < 8
            && !new String(in, i, 3, StandardCharsets.UTF_8).equals("%25")) {
          throw new ParseException(
              "invalid URL escape "
                  + GoFormatAccess.quote(new String(in, i, 3, StandardCharsets.UTF_8)));
        }
        out.write(unhex((char) in[i + 1]) << 4 | unhex((char) in[i + 2]));
        i += 2;
        continue;
      }
      if ((mode == Mode.HOST || mode == Mode.ZONE) && c < 0x80 && shouldEscape(c, mode)) {
        throw new ParseException(
            "invalid character "
                + GoFormatAccess.quote(String.valueOf((char) c))
                + " in host name");
      }
      if (c == '+' && mode == Mode.QUERY_COMPONENT) {
        c = ' ';
      }
      out.write(c);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Go's {@code shouldEscape} for the modes used here. */
  private static boolean shouldEscape(int c, Mode mode) {
    if (isAlnum((char) c) || c == '-' || c == '_' || c == '.' || c == '~') {
      return false;
    }
    if (mode == Mode.HOST || mode == Mode.ZONE) {
      if ("!$&'()*+,;=:[]<>\"".indexOf(c) >= 0) {
        return false;
      }
    }
    if ("$&+,/:;=?@".indexOf(c) >= 0) {
      return switch (mode) {
        case PATH -> c == '?';
        case USER_PASSWORD -> c == '@' || c == '/' || c == '?' || c == ':';
        case QUERY_COMPONENT -> true;
        case FRAGMENT -> false;
        default -> true;
      };
    }
    if (mode == Mode.FRAGMENT && "!()*".indexOf(c) >= 0) {
      return false;
    }
    return true;
  }

  /** Go's {@code escape} in path mode: %XX in upper case for every byte that needs it. */
  private static String escape(String s, Mode mode) {
    StringBuilder b = new StringBuilder();
    for (byte raw : s.getBytes(StandardCharsets.UTF_8)) {
      int c = raw & 0xff;
      if (c < 0x80 && !shouldEscape(c, mode)) {
        b.append((char) c);
      } else {
        b.append('%')
            .append("0123456789ABCDEF".charAt(c >> 4))
            .append("0123456789ABCDEF".charAt(c & 15));
      }
    }
    return b.toString();
  }

  private static boolean validEncoded(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if ("!$&'()*+,;=:@[]%".indexOf(c) >= 0) {
        continue;
      }
      if (c >= 0x80 || shouldEscape(c, Mode.PATH)) {
        return false;
      }
    }
    return true;
  }

  String scheme() {
    return scheme;
  }

  String host() {
    return host;
  }

  /** Go's {@code Hostname}: without port and IPv6 brackets. */
  String hostname() {
    return splitHostPort()[0];
  }

  /** Go's {@code Port}. */
  String port() {
    return splitHostPort()[1];
  }

  private String[] splitHostPort() {
    String h = host;
    String p = "";
    int colon = h.lastIndexOf(':');
    if (colon >= 0 && validOptionalPort(h.substring(colon))) {
      p = h.substring(colon + 1);
      h = h.substring(0, colon);
    }
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    return new String[] {h, p};
  }

  /** Go's {@code EscapedPath}. */
  String escapedPath() {
    if (!rawPath.isEmpty() && validEncoded(rawPath)) {
      try {
        if (unescape(rawPath, Mode.PATH).equals(path)) {
          return rawPath;
        }
      } catch (ParseException e) {
        // Fall through to escaping the decoded path, as Go does.
      }
    }
    return path.equals("*") ? "*" : escape(path, Mode.PATH);
  }

  /** Go's {@code Query}: pairs that do not decode, or contain ';', are dropped. */
  Map<String, List<String>> query() {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (String pair : rawQuery.split("&", -1)) {
      if (pair.isEmpty() || pair.contains(";")) {
        continue;
      }
      int eq = pair.indexOf('=');
      try {
        String k = unescape(eq < 0 ? pair : pair.substring(0, eq), Mode.QUERY_COMPONENT);
        String v = eq < 0 ? "" : unescape(pair.substring(eq + 1), Mode.QUERY_COMPONENT);
        out.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
      } catch (ParseException e) {
        // Go skips a pair with a bad escape.
      }
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof UrlValue u
        && scheme.equals(u.scheme)
        && host.equals(u.host)
        && path.equals(u.path)
        && rawPath.equals(u.rawPath)
        && rawQuery.equals(u.rawQuery);
  }

  @Override
  public int hashCode() {
    return Objects.hash(scheme, host, path, rawQuery);
  }

  @Override
  public Object value() {
    return this;
  }

  @Override
  public boolean isZeroValue() {
    return false;
  }

  @Override
  public CelType celType() {
    return TYPE;
  }

  /** jdra-api's Go quoting, named once here. */
  private static final class GoFormatAccess {
    static String quote(String s) {
      return io.jdra.api.validation.GoFormat.quote(s);
    }
  }
}
