package io.jdra.apiserver.http;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The warnings of one request, sent as {@code Warning: 299 - "text"} headers as kube-apiserver's
 * warning recorder does: deduplicated, in order, and once they pass 4096 characters in all, every
 * one cut to 256. Texts with control characters are dropped (not a valid header value). Adding is
 * thread-safe (a patch may be retried on a worker thread); writing happens once, on the request's
 * event loop, before the response.
 */
final class Warnings {
  private static final int TRUNCATE_AT_TOTAL = 4 * 1024;
  private static final int TRUNCATE_ITEM = 256;

  private final Set<String> texts = new LinkedHashSet<>();

  synchronized void add(String text) {
    if (text != null && !text.isEmpty() && text.codePoints().noneMatch(Character::isISOControl)) {
      texts.add(text);
    }
  }

  void addAll(List<String> all) {
    all.forEach(this::add);
  }

  /** Adds the headers to a response that has not been written yet. */
  void writeTo(Exchange resp) {
    List<String> all;
    synchronized (this) {
      if (texts.isEmpty()) {
        return;
      }
      all = new ArrayList<>(texts);
    }
    int total = all.stream().mapToInt(t -> t.codePointCount(0, t.length())).sum();
    boolean truncate = total > TRUNCATE_AT_TOTAL;
    int written = 0;
    for (String t : all) {
      if (truncate && written >= TRUNCATE_AT_TOTAL) {
        break; // upstream stops recording once the truncated ones fill the budget
      }
      String text = truncate ? cut(t) : t;
      written += text.codePointCount(0, text.length());
      resp.responseHeaders().add("Warning", header(text));
    }
  }

  private static String cut(String t) {
    int n = t.codePointCount(0, t.length());
    return n <= TRUNCATE_ITEM ? t : t.substring(0, t.offsetByCodePoints(0, TRUNCATE_ITEM));
  }

  /** {@code 299 - "text"} with quotes and backslashes escaped. */
  static String header(String text) {
    return "299 - \"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
