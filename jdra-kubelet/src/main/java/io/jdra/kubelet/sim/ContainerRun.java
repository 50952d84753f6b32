package io.jdra.kubelet.sim;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How long a simulated container runs and how it exits, read from its command line (a container
 * without a runtime has nothing else to go by). The rule, documented in the README:
 *
 * <ul>
 *   <li>A container without {@code command} and {@code args} runs the image's entrypoint, which is
 *       unknown here: it runs until stopped (most such images are servers).
 *   <li>Otherwise its script ({@code sh|bash -c SCRIPT}, else the command line) is read command by
 *       command (split as {@link SimulatedOutput} does). {@code sleep N} (GNU units {@code s m h
 *       d}, fractions) takes N on the kubelet's clock, {@code sleep N &} runs in the background
 *       until a later {@code wait}, {@code exit N} ends the script with N; {@code sleep infinity},
 *       {@code tail -f} and loops ({@code while}, {@code until}, {@code for}) run until stopped.
 *   <li>The script ends (exit code 0, or 1 if its last command is {@code false}) when its last
 *       command is one the simulation knows ends: a shell builtin or core utility that prints or
 *       waits ({@code echo}, {@code export}, {@code env}, {@code sleep}, {@code wait}, {@code
 *       true}, ...). A last command that is a program of the image ({@code python train.py}, {@code
 *       nginx}) may be a server, so the container runs until stopped; programs earlier in the
 *       script take no time.
 * </ul>
 *
 * So the demos' {@code export; trap 'exit 0' TERM; sleep 9999 & wait} runs for 9999 s (as on a real
 * node), {@code sh -c "echo hi"} completes at once and {@code sleep 5; exit 3} fails after 5 s.
 */
record ContainerRun(Duration after, int exitCode) {
  /** Commands that end by themselves and whose only effect is output or waiting. */
  private static final Set<String> FINITE =
      Set.of(
          "echo",
          "printf",
          "export",
          "env",
          "printenv",
          "set",
          "declare",
          "true",
          ":",
          "false",
          "sleep",
          "wait",
          "trap",
          "cat",
          "ls",
          "date",
          "hostname",
          "id",
          "pwd",
          "uname",
          "grep",
          "sort",
          "head",
          "nvidia-smi");

  /** When and how the container exits on its own, or empty when it runs until stopped. */
  static Optional<ContainerRun> of(List<String> command, List<String> args) {
    List<String> cmd = new ArrayList<>();
    if (command != null) {
      cmd.addAll(command);
    }
    if (args != null) {
      cmd.addAll(args);
    }
    if (cmd.isEmpty()) {
      return Optional.empty();
    }
    return script(scriptOf(cmd));
  }

  private static String scriptOf(List<String> cmd) {
    for (int i = 0; i + 1 < cmd.size(); i++) {
      if (cmd.get(i).equals("-c")) {
        return cmd.get(i + 1);
      }
    }
    return String.join(" ", cmd);
  }

  private static Optional<ContainerRun> script(String script) {
    Duration now = Duration.ZERO;
    Duration background = Duration.ZERO;
    String last = null;
    int code = 0;
    for (String step : backgroundMarked(script)) {
      boolean inBackground = step.endsWith(" &");
      String command = inBackground ? step.substring(0, step.length() - 2).strip() : step;
      List<String> w = SimulatedOutput.words(firstStage(command), Map.of());
      if (w.isEmpty()) {
        continue;
      }
      String program = w.get(0).substring(w.get(0).lastIndexOf('/') + 1);
      if (forever(program, w)) {
        if (inBackground) {
          background = null; // gone when the shell exits, endless if waited for
          continue;
        }
        return Optional.empty();
      }
      switch (program) {
        case "exit" -> {
          return Optional.of(new ContainerRun(now, w.size() > 1 ? exitCode(w.get(1)) : code));
        }
        case "sleep" -> {
          Duration d = sleep(w);
          if (d == null) {
            if (inBackground) {
              background = null;
              continue;
            }
            return Optional.empty();
          }
          if (inBackground) {
            Duration end = now.plus(d);
            if (background != null && end.compareTo(background) > 0) {
              background = end;
            }
          } else {
            now = now.plus(d);
          }
        }
        case "wait" -> {
          if (background == null) {
            return Optional.empty(); // waits for an endless background job
          }
          now = now.compareTo(background) < 0 ? background : now;
        }
        default -> {}
      }
      last = program;
      code = "false".equals(program) ? 1 : 0;
    }
    if (last != null && !FINITE.contains(last)) {
      return Optional.empty();
    }
    return Optional.of(new ContainerRun(now, code));
  }

  /**
   * The script's commands, each ending with {@code " &"} when it runs in the background ({@link
   * SimulatedOutput#commands} drops the separator, so it is found again here).
   */
  private static List<String> backgroundMarked(String script) {
    List<String> out = new ArrayList<>();
    int from = 0;
    for (String c : SimulatedOutput.commands(script)) {
      int at = script.indexOf(c, from);
      int end = at < 0 ? from : at + c.length();
      String rest = script.substring(end).stripLeading();
      boolean bg = rest.startsWith("&") && !rest.startsWith("&&");
      out.add(bg ? c + " &" : c);
      from = end;
    }
    return out;
  }

  private static String firstStage(String command) {
    int bar = command.indexOf('|');
    return bar < 0 ? command : command.substring(0, bar);
  }

  private static boolean forever(String program, List<String> w) {
    return switch (program) {
      case "while", "until", "for" -> true;
      case "tail" -> w.contains("-f") || w.contains("-F");
      default -> false;
    };
  }

  /** GNU sleep's arguments summed ({@code 1m 30s}); null for {@code infinity} or unreadable. */
  private static Duration sleep(List<String> w) {
    Duration total = Duration.ZERO;
    if (w.size() < 2) {
      return null;
    }
    for (String arg : w.subList(1, w.size())) {
      if (arg.isEmpty() || arg.equals("infinity") || arg.equals("inf")) {
        return null;
      }
      char last = arg.charAt(arg.length() - 1);
      boolean hasUnit = Character.isLetter(last);
      String number = hasUnit ? arg.substring(0, arg.length() - 1) : arg;
      long seconds =
          switch (hasUnit ? last : 's') {
            case 's' -> 1;
            case 'm' -> 60;
            case 'h' -> 3600;
            case 'd' -> 86400;
            default -> -1;
          };
      try {
        BigDecimal n = new BigDecimal(number);
        if (seconds < 0 || n.signum() < 0) {
          return null;
        }
        total =
            total.plusNanos(n.multiply(BigDecimal.valueOf(seconds * 1_000_000_000L)).longValue());
      } catch (NumberFormatException e) {
        return null; // sleep "$DELAY" and the like: unknown, so treat as endless
      }
    }
    return total;
  }

  /** The shell's exit status of {@code exit N}: N modulo 256. */
  private static int exitCode(String arg) {
    try {
      return Math.floorMod(Integer.parseInt(arg), 256);
    } catch (NumberFormatException e) {
      return 2; // bash: "numeric argument required"
    }
  }
}
