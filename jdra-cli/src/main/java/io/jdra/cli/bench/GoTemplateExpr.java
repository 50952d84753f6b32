package io.jdra.cli.bench;

import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/** Pipelines of {@link GoTemplate}: parsing and evaluation, with scheduler_perf's functions. */
final class GoTemplateExpr {
  private GoTemplateExpr() {}

  /** What an expression sees: {@code .}, the template's data, and the variables. */
  record Env(String where, Object dot, Map<String, Object> root, Function<String, Object> var) {}

  sealed interface Operand permits Dot, Field, RootField, Var, Literal, Sub, Ident {
    Object eval(Env env);
  }

  record Dot() implements Operand {
    @Override
    public Object eval(Env env) {
      return env.dot();
    }
  }

  /** {@code .a.b}: fields of the data; a missing key is nil, as in Go for maps. */
  record Field(List<String> path) implements Operand {
    @Override
    public Object eval(Env env) {
      Object v = env.dot() instanceof Map<?, ?> ? env.dot() : env.root();
      for (String p : path) {
        v = v instanceof Map<?, ?> m ? m.get(p) : null;
      }
      return v;
    }
  }

  /** {@code $} or {@code $.a.b}: the template's data, wherever {@code .} is. */
  record RootField(List<String> path) implements Operand {
    @Override
    public Object eval(Env env) {
      Object v = env.root();
      for (String p : path) {
        v = v instanceof Map<?, ?> m ? m.get(p) : null;
      }
      return v;
    }
  }

  record Var(String name) implements Operand {
    @Override
    public Object eval(Env env) {
      return env.var().apply(name);
    }
  }

  record Literal(Object value) implements Operand {
    @Override
    public Object eval(Env env) {
      return value;
    }
  }

  record Sub(Pipeline p) implements Operand {
    @Override
    public Object eval(Env env) {
      return p.eval(env);
    }
  }

  /** A function name; only valid first in a command. */
  record Ident(String name) implements Operand {
    @Override
    public Object eval(Env env) {
      throw new IllegalArgumentException(env.where() + ": " + name + " is not a value");
    }
  }

  /** One command: a function with arguments, or a single operand. */
  record Command(List<Operand> operands) {
    Object eval(Env env, Object piped, boolean hasPiped) {
      Operand first = operands.get(0);
      List<Object> args = new ArrayList<>();
      for (int i = 1; i < operands.size(); i++) {
        args.add(operands.get(i).eval(env));
      }
      if (hasPiped) {
        args.add(piped);
      }
      if (first instanceof Ident id) {
        return call(env.where(), id.name(), args);
      }
      if (!args.isEmpty()) {
        throw new IllegalArgumentException(env.where() + ": can't give arguments to a value");
      }
      return first.eval(env);
    }
  }

  record Pipeline(List<Command> commands) {
    Object eval(Env env) {
      Object v = null;
      for (int i = 0; i < commands.size(); i++) {
        v = commands.get(i).eval(env, v, i > 0);
      }
      return v;
    }
  }

  static Pipeline parse(String where, String text) {
    int[] pos = {0};
    Pipeline p = pipeline(where, text, pos);
    skipSpace(text, pos);
    if (pos[0] < text.length()) {
      throw new IllegalArgumentException(where + ": unexpected \"" + text.substring(pos[0]) + "\"");
    }
    return p;
  }

  private static Pipeline pipeline(String where, String s, int[] pos) {
    List<Command> commands = new ArrayList<>();
    List<Operand> current = new ArrayList<>();
    while (true) {
      skipSpace(s, pos);
      if (pos[0] >= s.length() || s.charAt(pos[0]) == ')') {
        break;
      }
      if (s.charAt(pos[0]) == '|') {
        pos[0]++;
        commands.add(command(where, current));
        current = new ArrayList<>();
        continue;
      }
      current.add(operand(where, s, pos));
    }
    commands.add(command(where, current));
    return new Pipeline(List.copyOf(commands));
  }

  private static Command command(String where, List<Operand> ops) {
    if (ops.isEmpty()) {
      throw new IllegalArgumentException(where + ": empty command");
    }
    return new Command(List.copyOf(ops));
  }

  private static Operand operand(String where, String s, int[] pos) {
    char c = s.charAt(pos[0]);
    if (c == '(') {
      pos[0]++;
      Pipeline p = pipeline(where, s, pos);
      if (pos[0] >= s.length()) {
        throw new IllegalArgumentException(where + ": missing )");
      }
      pos[0]++;
      return new Sub(p);
    }
    if (c == '"') {
      int end = s.indexOf('"', pos[0] + 1);
      if (end < 0) {
        throw new IllegalArgumentException(where + ": unterminated string");
      }
      String v = s.substring(pos[0] + 1, end);
      pos[0] = end + 1;
      return new Literal(v);
    }
    int start = pos[0];
    while (pos[0] < s.length()
        && !Character.isWhitespace(s.charAt(pos[0]))
        && "|()".indexOf(s.charAt(pos[0])) < 0) {
      pos[0]++;
    }
    String word = s.substring(start, pos[0]);
    if (word.equals(".")) {
      return new Dot();
    }
    if (word.startsWith(".")) {
      return new Field(List.of(word.substring(1).split("\\.")));
    }
    if (word.equals("$")) {
      return new RootField(List.of());
    }
    if (word.startsWith("$.")) {
      return new RootField(List.of(word.substring(2).split("\\.")));
    }
    if (word.startsWith("$")) {
      return new Var(word.substring(1));
    }
    if (word.matches("-?\\d+")) {
      return new Literal(Long.parseLong(word));
    }
    return switch (word) {
      case "nil" -> new Literal(null);
      case "true" -> new Literal(true);
      case "false" -> new Literal(false);
      default -> {
        if (!word.matches("[A-Za-z]\\w*")) {
          throw new IllegalArgumentException(where + ": cannot read \"" + word + "\"");
        }
        yield new Ident(word);
      }
    };
  }

  private static void skipSpace(String s, int[] pos) {
    while (pos[0] < s.length() && Character.isWhitespace(s.charAt(pos[0]))) {
      pos[0]++;
    }
  }

  static boolean truth(Object v) {
    if (v == null) {
      return false;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    if (v instanceof Number n) {
      return n.doubleValue() != 0;
    }
    if (v instanceof String s) {
      return !s.isEmpty();
    }
    if (v instanceof Collection<?> c) {
      return !c.isEmpty();
    }
    if (v instanceof Map<?, ?> m) {
      return !m.isEmpty();
    }
    return true;
  }

  private static Object call(String where, String fn, List<Object> a) {
    return switch (fn) {
      case "or" -> {
        Object last = null;
        for (Object v : a) {
          last = v;
          if (truth(v)) {
            break;
          }
        }
        yield last;
      }
      case "and" -> {
        Object last = null;
        for (Object v : a) {
          last = v;
          if (!truth(v)) {
            break;
          }
        }
        yield last;
      }
      case "not" -> !truth(arg(where, fn, a, 1).get(0));
      case "eq" -> Objects.equals(norm(a.get(0)), norm(arg(where, fn, a, 2).get(1)));
      case "ne" -> !Objects.equals(norm(a.get(0)), norm(arg(where, fn, a, 2).get(1)));
      case "Int" -> toLong(where, arg(where, fn, a, 1).get(0));
      case "JSON" -> {
        Object v = arg(where, fn, a, 1).get(0);
        yield v == null ? "null" : Serialization.asJson(v);
      }
      case "DivideInt" -> toLong(where, arg(where, fn, a, 2).get(0)) / toLong(where, a.get(1));
      case "AddInt" -> toLong(where, arg(where, fn, a, 2).get(0)) + toLong(where, a.get(1));
      case "SubtractInt" -> toLong(where, arg(where, fn, a, 2).get(0)) - toLong(where, a.get(1));
      case "MultiplyInt" -> toLong(where, arg(where, fn, a, 2).get(0)) * toLong(where, a.get(1));
      case "ModInt" -> toLong(where, arg(where, fn, a, 2).get(0)) % toLong(where, a.get(1));
      default ->
          throw new IllegalArgumentException(where + ": function " + fn + " is not supported");
    };
  }

  private static List<Object> arg(String where, String fn, List<Object> a, int n) {
    if (a.size() != n) {
      throw new IllegalArgumentException(
          where + ": " + fn + " takes " + n + " argument(s), got " + a.size());
    }
    return a;
  }

  private static Object norm(Object v) {
    return v instanceof Number n && !(v instanceof Double) ? (Object) n.longValue() : v;
  }

  static long toLong(String where, Object v) {
    if (v instanceof Number n) {
      return n.longValue();
    }
    if (v instanceof String s && s.matches("-?\\d+")) {
      return Long.parseLong(s);
    }
    throw new IllegalArgumentException(where + ": expected an integer, got " + v);
  }
}
