package io.jdra.kubelet.sim;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * What a simulated container prints, derived from its command line and final environment. The usual
 * DRA demo containers run {@code export} (bash prints {@code declare -x NAME="value"} for every
 * variable, sorted by name) or {@code env} / {@code printenv} ({@code NAME=value} lines); those are
 * reproduced. Any other command prints nothing.
 */
final class SimulatedOutput {
  private static final Pattern EXPORT = Pattern.compile("(^|[\\s;&|(])export(\\s*($|[;&|)]))");
  private static final Pattern ENV = Pattern.compile("(^|[\\s;&|(])(env|printenv)(\\s*($|[;&|)]))");

  private SimulatedOutput() {}

  static String of(List<String> commandLine, Map<String, String> env) {
    String script = String.join(" ", commandLine);
    StringBuilder out = new StringBuilder();
    if (EXPORT.matcher(script).find()) {
      new TreeMap<>(env)
          .forEach((k, v) ->
              out.append("declare -x ")
                  .append(k)
                  .append("=\"")
                  .append(bashQuote(v))
                  .append("\"\n"));
    } else if (ENV.matcher(script).find()) {
      env.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
    }
    return out.toString();
  }

  /** Escapes as bash does inside double quotes in {@code declare -x} output. */
  private static String bashQuote(String v) {
    StringBuilder b = new StringBuilder();
    for (char c : v.toCharArray()) {
      if (c == '"' || c == '\\' || c == '$' || c == '`') {
        b.append('\\');
      }
      b.append(c);
    }
    return b.toString();
  }
}
