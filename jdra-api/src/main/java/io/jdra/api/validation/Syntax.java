package io.jdra.api.validation;

/**
 * The name syntaxes of upstream's validation (RFC 1123 labels and subdomains, the name part of a
 * qualified name, label values), tested character by character, without length limits: these run
 * for every name, finalizer, label and annotation key of every write, where a regular expression
 * match cost more than the rest of metadata admission (the API server's admission and {@link
 * NameValidation} use them). {@code SyntaxTest} compares each with upstream's regular expression.
 */
public final class Syntax {
  private Syntax() {}

  /** {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?} (no length limit). */
  public static boolean dnsLabel(String s) {
    return dnsLabel(s, 0, s.length());
  }

  /** {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*} (no length limit). */
  public static boolean dnsSubdomain(String s) {
    int start = 0;
    while (true) {
      int dot = s.indexOf('.', start);
      int end = dot < 0 ? s.length() : dot;
      if (!dnsLabel(s, start, end)) {
        return false;
      }
      if (dot < 0) {
        return true;
      }
      start = dot + 1;
    }
  }

  /** {@code ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]}: a qualified name's name part. */
  public static boolean namePart(String s) {
    int n = s.length();
    if (n == 0 || !alnum(s.charAt(0)) || !alnum(s.charAt(n - 1))) {
      return false;
    }
    for (int i = 1; i < n - 1; i++) {
      char c = s.charAt(i);
      if (!alnum(c) && c != '-' && c != '_' && c != '.') {
        return false;
      }
    }
    return true;
  }

  /** {@code (([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?}: a label value. */
  public static boolean labelValue(String s) {
    return s.isEmpty() || namePart(s);
  }

  private static boolean dnsLabel(String s, int from, int to) {
    if (to <= from || !lowerAlnum(s.charAt(from)) || !lowerAlnum(s.charAt(to - 1))) {
      return false;
    }
    for (int i = from + 1; i < to - 1; i++) {
      char c = s.charAt(i);
      if (!lowerAlnum(c) && c != '-') {
        return false;
      }
    }
    return true;
  }

  private static boolean lowerAlnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
  }

  private static boolean alnum(char c) {
    return lowerAlnum(c) || (c >= 'A' && c <= 'Z');
  }
}
