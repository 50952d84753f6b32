package io.jdra.kubelet.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What a simulated container prints, derived from its command line and final environment, for the
 * shell scripts DRA demos run ({@code bash -c SCRIPT}): the script is split into commands at
 * newlines, {@code ;} and {@code &} outside quotes, and each command is interpreted when it is one
 * bash would print from without the container's programs: {@code export} ({@code declare -x
 * NAME="value"} for every variable, sorted), {@code env} / {@code printenv} ({@code NAME=value}),
 * {@code echo} (with {@code $NAME} and {@code ${NAME}} expanded, quotes removed), and pipelines of
 * those through {@code grep PATTERN} and {@code sort}. Anything else ({@code trap}, {@code sleep},
 * {@code wait}, programs of the image) prints nothing. A command line that is not a shell script is
 * interpreted as one command.
 */
final class SimulatedOutput {
  private static final Pattern VAR =
      Pattern.compile("\\$(\\{([A-Za-z_][A-Za-z0-9_]*)}|([A-Za-z_][A-Za-z0-9_]*))");

  private SimulatedOutput() {}

  static String of(List<String> commandLine, Map<String, String> env) {
    String script = script(commandLine);
    StringBuilder out = new StringBuilder();
    for (String command : commands(script)) {
      List<String> lines = pipeline(command, env);
      for (String l : lines) {
        out.append(l).append('\n');
      }
    }
    return out.toString();
  }

  /** The script of {@code sh|bash -c SCRIPT}, else the command line joined by spaces. */
  private static String script(List<String> cmd) {
    for (int i = 0; i + 1 < cmd.size(); i++) {
      if (cmd.get(i).equals("-c")) {
        return cmd.get(i + 1);
      }
    }
    return String.join(" ", cmd);
  }

  /** Splits at newlines, {@code ;}, {@code &&}, {@code ||} and {@code &} outside quotes. */
  static List<String> commands(String script) {
    return splitOutsideQuotes(script, List.of("\n", ";", "&&", "||", "&"));
  }

  /**
   * Splits {@code s} at the first of {@code separators} found at each position outside single or
   * double quotes (longer separators listed first win); blank parts and comments are dropped.
   */
  private static List<String> splitOutsideQuotes(String s, List<String> separators) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    char quote = 0;
    int i = 0;
    outer:
    while (i < s.length()) {
      char c = s.charAt(i);
      if (quote != 0) {
        quote = c == quote ? 0 : quote;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else {
        for (String sep : separators) {
          if (s.startsWith(sep, i)) {
            flush(cur, out);
            i += sep.length();
            continue outer;
          }
        }
      }
      cur.append(c);
      i++;
    }
    flush(cur, out);
    return out;
  }

  private static void flush(StringBuilder cur, List<String> out) {
    String s = cur.toString().strip();
    if (!s.isEmpty() && !s.startsWith("#")) {
      out.add(s);
    }
    cur.setLength(0);
  }

  /** Runs {@code a | b | c}: the first stage makes lines, the others filter them. */
  private static List<String> pipeline(String command, Map<String, String> env) {
    List<String> stages = splitOutsideQuotes(command, List.of("|"));
    List<String> lines = source(words(stages.get(0), env), env);
    for (int i = 1; i < stages.size() && lines != null; i++) {
      lines = filter(words(stages.get(i), env), lines);
    }
    return lines == null ? List.of() : lines;
  }

  /** The lines a first stage prints, or null for a command that prints nothing here. */
  private static List<String> source(List<String> w, Map<String, String> env) {
    if (w.isEmpty()) {
      return null;
    }
    List<String> out = new ArrayList<>();
    switch (w.get(0)) {
      case "export" -> {
        if (w.size() == 1) {
          new TreeMap<>(env)
              .forEach((k, v) -> out.add("declare -x " + k + "=\"" + bashQuote(v) + "\""));
        }
      }
      case "env", "printenv" -> {
        if (w.size() == 1) {
          env.forEach((k, v) -> out.add(k + "=" + v));
        } else if (w.get(0).equals("printenv")) {
          for (String name : w.subList(1, w.size())) {
            if (env.containsKey(name)) {
              out.add(env.get(name));
            }
          }
        }
      }
      case "echo" -> out.add(String.join(" ", w.subList(1, w.size())));
      default -> {
        return null;
      }
    }
    return out;
  }

  /** A filter stage ({@code grep [-v] PATTERN}, {@code sort}); others pass lines through. */
  private static List<String> filter(List<String> w, List<String> lines) {
    if (w.isEmpty()) {
      return lines;
    }
    switch (w.get(0)) {
      case "sort" -> {
        List<String> sorted = new ArrayList<>(lines);
        sorted.sort(null);
        return sorted;
      }
      case "grep" -> {
        boolean invert = w.contains("-v");
        String pattern = null;
        for (String a : w.subList(1, w.size())) {
          if (!a.startsWith("-")) {
            pattern = a;
            break;
          }
        }
        if (pattern == null) {
          return lines;
        }
        Pattern p;
        try {
          p = Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
          p = Pattern.compile(Pattern.quote(pattern));
        }
        List<String> out = new ArrayList<>();
        for (String l : lines) {
          if (p.matcher(l).find() != invert) {
            out.add(l);
          }
        }
        return out;
      }
      default -> {
        return lines;
      }
    }
  }

  /**
   * The words of a simple command as bash expands them: split at blanks outside quotes, quotes
   * removed, variables expanded outside single quotes.
   */
  static List<String> words(String command, Map<String, String> env) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean inWord = false;
    int i = 0;
    while (i < command.length()) {
      char c = command.charAt(i);
      if (c == '\'') {
        int end = command.indexOf('\'', i + 1);
        end = end < 0 ? command.length() : end;
        cur.append(command, i + 1, end);
        inWord = true;
        i = end + 1;
      } else if (c == '"') {
        int end = command.indexOf('"', i + 1);
        end = end < 0 ? command.length() : end;
        cur.append(expand(command.substring(i + 1, end), env));
        inWord = true;
        i = end + 1;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          out.add(cur.toString());
          cur.setLength(0);
          inWord = false;
        }
        i++;
      } else {
        int end = i;
        while (end < command.length()
            && !Character.isWhitespace(command.charAt(end))
            && command.charAt(end) != '\''
            && command.charAt(end) != '"') {
          end++;
        }
        cur.append(expand(command.substring(i, end), env));
        inWord = true;
        i = end;
      }
    }
    if (inWord) {
      out.add(cur.toString());
    }
    return out;
  }

  private static String expand(String s, Map<String, String> env) {
    Matcher m = VAR.matcher(s);
    StringBuilder b = new StringBuilder();
    while (m.find()) {
      String name = m.group(2) != null ? m.group(2) : m.group(3);
      m.appendReplacement(b, Matcher.quoteReplacement(env.getOrDefault(name, "")));
    }
    m.appendTail(b);
    return b.toString();
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
