package io.jdra.cel;

import static dev.cel.common.types.SimpleType.INT;
import static dev.cel.common.types.SimpleType.STRING;

import com.google.common.collect.ImmutableList;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.common.types.ListType;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.List;

/**
 * The Kubernetes regex library: {@code find} and {@code findAll} with RE2 semantics (linear time,
 * as Go's regexp). {@code matches} is CEL's standard function.
 */
final class RegexLibrary {
  private RegexLibrary() {}

  static void register(FunctionTable t) {
    t.member(
        "find",
        "string_find_string",
        STRING,
        List.of(STRING, STRING),
        CelFunctionBinding.from(
            "string_find_string",
            String.class,
            String.class,
            (s, re) -> {
              Matcher m = compile(re).matcher(s);
              return m.find() ? m.group() : "";
            }));
    t.member(
        "findAll",
        "string_find_all_string",
        ListType.create(STRING),
        List.of(STRING, STRING),
        CelFunctionBinding.from(
            "string_find_all_string", String.class, String.class, (s, re) -> findAll(s, re, -1)));
    t.member(
        "findAll",
        "string_find_all_string_int",
        ListType.create(STRING),
        List.of(STRING, STRING, INT),
        CelFunctionBinding.from(
            "string_find_all_string_int",
            List.of(String.class, String.class, Long.class),
            args -> findAll((String) args[0], (String) args[1], (Long) args[2])));
  }

  /**
   * Compiled patterns by source; bounded, cleared when full (patterns are nearly always literals).
   */
  private static final java.util.concurrent.ConcurrentHashMap<String, Pattern> PATTERNS =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static final int MAX_PATTERNS = 256;

  /** CEL's standard matches: RE2, unanchored (as cel-go's MatchString). */
  static boolean matches(String s, String re) throws CelEvaluationException {
    return compile(re, "").matcher(s).find();
  }

  static Pattern compile(String re) throws CelEvaluationException {
    return compile(re, "Illegal regex: ");
  }

  private static Pattern compile(String re, String errorPrefix) throws CelEvaluationException {
    Pattern cached = PATTERNS.get(re);
    if (cached != null) {
      return cached;
    }
    try {
      Pattern p = Pattern.compile(re);
      if (PATTERNS.size() >= MAX_PATTERNS) {
        PATTERNS.clear();
      }
      PATTERNS.put(re, p);
      return p;
    } catch (PatternSyntaxException e) {
      throw new CelEvaluationException(errorPrefix + e.getMessage());
    }
  }

  /**
   * Like Go's FindAllString: n < 0 means all matches; empty matches right after one are skipped.
   */
  private static ImmutableList<String> findAll(String s, String re, long n)
      throws CelEvaluationException {
    Matcher m = compile(re).matcher(s);
    ImmutableList.Builder<String> out = ImmutableList.builder();
    long count = 0;
    int prevEnd = -1;
    while ((n < 0 || count < n) && m.find()) {
      if (m.start() == m.end() && m.start() == prevEnd) {
        continue;
      }
      out.add(m.group());
      prevEnd = m.end();
      count++;
    }
    return out.build();
  }
}
