package io.jdra.cli.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The small subset of Go's text/template that scheduler_perf's DRA templates use: {@code {{ .Name
 * }}}, {@code {{$v := (or .name DEFAULT) | Int}}} or {@code | JSON}, {@code {{$v}}}, and {@code
 * {{range $v}}...{{.}}...{{end}}} over an integer (0..n-1). Anything else is an error naming the
 * action, so a new upstream template fails loudly instead of rendering wrong.
 */
final class GoTemplate {
  private static final Pattern ACTION =
      Pattern.compile("\\{\\{-?\\s*(.*?)\\s*-?}}", Pattern.DOTALL);
  private static final Pattern ASSIGN =
      Pattern.compile("\\$(\\w+)\\s*:=\\s*\\(or\\s+\\.(\\w+)\\s+(\\S+)\\)\\s*\\|\\s*(Int|JSON)");
  private static final Pattern RANGE = Pattern.compile("range\\s+\\$(\\w+)");

  private GoTemplate() {}

  /** Renders {@code text} with the parameters (e.g. {@code Index}); throws on unknown actions. */
  static String render(String name, String text, Map<String, Object> params) {
    Map<String, Object> vars = new HashMap<>();
    StringBuilder out = new StringBuilder();
    Matcher m = ACTION.matcher(text);
    int pos = 0;
    while (m.find(pos)) {
      out.append(text, pos, m.start());
      String action = m.group(1);
      pos = m.end();
      Matcher assign = ASSIGN.matcher(action);
      Matcher range = RANGE.matcher(action);
      if (assign.matches()) {
        Object v = params.get(assign.group(2));
        if (v == null) {
          v = literal(assign.group(3));
        }
        vars.put(assign.group(1), assign.group(4).equals("Int") ? toInt(name, v) : json(v));
      } else if (range.matches()) {
        int end = text.indexOf("{{end}}", pos);
        if (end < 0) {
          throw new IllegalArgumentException(name + ": {{range}} without {{end}}");
        }
        String body = text.substring(pos, end);
        int n = toInt(name, vars.get(range.group(1)));
        for (int i = 0; i < n; i++) {
          String item = body.replace("{{.}}", Integer.toString(i));
          out.append(render(name, item, paramsWith(params, vars)));
        }
        pos = end + "{{end}}".length();
      } else if (action.startsWith("$") && vars.containsKey(action.substring(1))) {
        out.append(vars.get(action.substring(1)));
      } else if (action.startsWith("$") && params.containsKey(action)) {
        out.append(params.get(action)); // a variable of the enclosing template, inside range
      } else if (action.matches("\\.\\w+") && params.containsKey(action.substring(1))) {
        out.append(params.get(action.substring(1)));
      } else {
        throw new IllegalArgumentException(
            name + ": template action {{" + action + "}} is not supported or has no value");
      }
    }
    out.append(text.substring(pos));
    return out.toString();
  }

  // Variables of the enclosing template stay visible inside a range body, as in Go.
  private static Map<String, Object> paramsWith(
      Map<String, Object> params, Map<String, Object> vars) {
    Map<String, Object> all = new HashMap<>(params);
    vars.forEach((k, v) -> all.put("$" + k, v));
    return all;
  }

  private static Object literal(String s) {
    return s.equals("nil") ? null : s.matches("-?\\d+") ? Integer.parseInt(s) : s;
  }

  private static int toInt(String name, Object v) {
    if (v instanceof Number n) {
      return n.intValue();
    }
    if (v instanceof String s && s.matches("-?\\d+")) {
      return Integer.parseInt(s);
    }
    throw new IllegalArgumentException(name + ": expected an integer, got " + v);
  }

  private static String json(Object v) {
    if (v == null) {
      return "null";
    }
    return io.fabric8.kubernetes.client.utils.Serialization.asJson(v);
  }
}
