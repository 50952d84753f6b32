package io.jdra.cli.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The part of Go's text/template that scheduler_perf's templates use, with scheduler_perf's
 * functions: actions {@code {{ pipeline }}}, {@code {{$v := pipeline}}}, {@code {{range
 * pipeline}}...{{end}}} (over an integer n: 0..n-1, or a list), {@code {{if pipeline}}...{{else
 * }}...{{end}}}, trim markers {@code {{-}} / {@code -}}}; pipelines of commands joined by {@code |}
 * whose operands are {@code .}, {@code .Field}, {@code $var}, numbers, quoted strings, {@code nil}
 * and parenthesised pipelines; functions {@code or}, {@code and}, {@code not}, {@code eq}, {@code
 * ne}, {@code Int}, {@code JSON}, {@code DivideInt}, {@code AddInt}, {@code SubtractInt}, {@code
 * MultiplyInt}, {@code ModInt}. A missing field is nil (Go's map lookup); anything else unknown is
 * an error naming the template and the action, so an upstream template jdra cannot read fails
 * loudly instead of rendering wrong.
 */
final class GoTemplate {
  private static final Pattern ACTION =
      Pattern.compile("\\{\\{(-\\s)?\\s*(.*?)\\s*(\\s-)?}}", Pattern.DOTALL);

  private final String name;
  private final List<Node> nodes;

  private GoTemplate(String name, List<Node> nodes) {
    this.name = name;
    this.nodes = nodes;
  }

  /** Renders {@code text} with the parameters (e.g. {@code Index}); throws on unknown actions. */
  static String render(String name, String text, Map<String, Object> params) {
    return parse(name, text).execute(params);
  }

  static GoTemplate parse(String name, String text) {
    List<Object> tokens = tokenize(text);
    int[] pos = {0};
    List<Node> nodes = parseList(name, tokens, pos, false);
    if (pos[0] < tokens.size()) {
      throw new IllegalArgumentException(name + ": {{" + tokens.get(pos[0]) + "}} without a block");
    }
    return new GoTemplate(name, nodes);
  }

  String execute(Map<String, Object> params) {
    StringBuilder out = new StringBuilder();
    Scope scope = new Scope(null, params);
    for (Node n : nodes) {
      n.exec(scope, params, out);
    }
    return out.toString();
  }

  // ---- parsing: text and actions, then blocks ----

  /** An action's text, set apart from literal text (which stays a String). */
  private record Action(String text) {
    @Override
    public String toString() {
      return text;
    }
  }

  private static List<Object> tokenize(String text) {
    List<Object> out = new ArrayList<>();
    Matcher m = ACTION.matcher(text);
    int pos = 0;
    while (m.find(pos)) {
      String literal = text.substring(pos, m.start());
      if (m.group(1) != null) {
        literal = literal.stripTrailing();
      }
      out.add(literal);
      out.add(new Action(m.group(2)));
      pos = m.end();
      if (m.group(3) != null) {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
          pos++;
        }
      }
    }
    out.add(text.substring(pos));
    return out;
  }

  private static List<Node> parseList(
      String name, List<Object> tokens, int[] pos, boolean inBlock) {
    List<Node> out = new ArrayList<>();
    while (pos[0] < tokens.size()) {
      Object t = tokens.get(pos[0]);
      if (t instanceof String s) {
        out.add(new Text(s));
        pos[0]++;
        continue;
      }
      String a = ((Action) t).text();
      if (a.equals("end") || a.equals("else")) {
        if (!inBlock) {
          throw new IllegalArgumentException(name + ": {{" + a + "}} without a block");
        }
        return out;
      }
      pos[0]++;
      if (a.startsWith("/*")) {
        continue; // a comment
      }
      if (a.startsWith("range ") || a.startsWith("if ")) {
        boolean range = a.startsWith("range ");
        Expr e = Expr.parse(name, a.substring(range ? 6 : 3));
        List<Node> body = parseList(name, tokens, pos, true);
        List<Node> otherwise = List.of();
        if (pos[0] < tokens.size() && tokens.get(pos[0]).toString().equals("else")) {
          pos[0]++;
          otherwise = parseList(name, tokens, pos, true);
        }
        if (pos[0] >= tokens.size()) {
          throw new IllegalArgumentException(name + ": {{" + a + "}} without {{end}}");
        }
        pos[0]++; // {{end}}
        out.add(range ? new Range(name, e, body, otherwise) : new If(e, body, otherwise));
        continue;
      }
      Matcher assign = Pattern.compile("\\$(\\w+)\\s*:?=\\s*(.*)", Pattern.DOTALL).matcher(a);
      if (assign.matches()) {
        out.add(new Assign(assign.group(1), Expr.parse(name, assign.group(2))));
      } else {
        out.add(new Print(Expr.parse(name, a)));
      }
    }
    return out;
  }

  // ---- execution ----

  /** Variables, innermost first; {@code dot} is what {@code .} means here. */
  private static final class Scope {
    final Scope parent;
    final Object dot;
    final Map<String, Object> vars = new HashMap<>();

    Scope(Scope parent, Object dot) {
      this.parent = parent;
      this.dot = dot;
    }

    Object get(String var, String where) {
      for (Scope s = this; s != null; s = s.parent) {
        if (s.vars.containsKey(var)) {
          return s.vars.get(var);
        }
      }
      throw new IllegalArgumentException(where + ": undefined variable $" + var);
    }
  }

  private sealed interface Node permits Text, Print, Assign, Range, If {
    void exec(Scope scope, Map<String, Object> root, StringBuilder out);
  }

  private record Text(String text) implements Node {
    @Override
    public void exec(Scope scope, Map<String, Object> root, StringBuilder out) {
      out.append(text);
    }
  }

  private record Print(Expr e) implements Node {
    @Override
    public void exec(Scope scope, Map<String, Object> root, StringBuilder out) {
      Object v = e.eval(scope, root);
      if (v == null) {
        // Go would print "<no value>"; a benchmark object with that text is wrong, so say so.
        throw new IllegalArgumentException(e.where() + " has no value");
      }
      out.append(v);
    }
  }

  private record Assign(String var, Expr e) implements Node {
    @Override
    public void exec(Scope scope, Map<String, Object> root, StringBuilder out) {
      scope.vars.put(var, e.eval(scope, root));
    }
  }

  private record Range(String name, Expr e, List<Node> body, List<Node> otherwise) implements Node {
    @Override
    public void exec(Scope scope, Map<String, Object> root, StringBuilder out) {
      Object v = e.eval(scope, root);
      List<Object> items = new ArrayList<>();
      if (v instanceof Number n) {
        for (int i = 0; i < n.intValue(); i++) {
          items.add(i);
        }
      } else if (v instanceof List<?> l) {
        items.addAll(l);
      } else if (v != null) {
        throw new IllegalArgumentException(name + ": range over " + v + " (not a number or list)");
      }
      if (items.isEmpty()) {
        otherwise.forEach(n -> n.exec(scope, root, out));
      }
      for (Object item : items) {
        Scope inner = new Scope(scope, item);
        body.forEach(n -> n.exec(inner, root, out));
      }
    }
  }

  private record If(Expr e, List<Node> body, List<Node> otherwise) implements Node {
    @Override
    public void exec(Scope scope, Map<String, Object> root, StringBuilder out) {
      Scope inner = new Scope(scope, scope.dot);
      (Expr.truth(e.eval(scope, root)) ? body : otherwise).forEach(n -> n.exec(inner, root, out));
    }
  }

  /** A pipeline, parsed once; {@link GoTemplateExpr} evaluates it. */
  private record Expr(String where, GoTemplateExpr.Pipeline pipeline) {
    static Expr parse(String name, String text) {
      String where = name + ": template action {{" + text.trim() + "}}";
      return new Expr(where, GoTemplateExpr.parse(where, text));
    }

    Object eval(Scope scope, Map<String, Object> root) {
      return pipeline.eval(
          new GoTemplateExpr.Env(where, scope.dot, root, v -> scope.get(v, where)));
    }

    static boolean truth(Object v) {
      return GoTemplateExpr.truth(v);
    }
  }
}
