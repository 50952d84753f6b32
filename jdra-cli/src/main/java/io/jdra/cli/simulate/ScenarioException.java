package io.jdra.cli.simulate;

import java.util.List;

/** A scenario file that cannot be run: every problem found, each with its field path. */
public final class ScenarioException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final transient List<String> problems;

  ScenarioException(String source, List<String> problems) {
    super(
        "scenario "
            + source
            + " is invalid:\n  "
            + String.join("\n  ", problems.subList(0, Math.min(problems.size(), 20)))
            + (problems.size() > 20 ? "\n  ... and " + (problems.size() - 20) + " more" : ""));
    this.problems = List.copyOf(problems);
  }

  /** The problems, as {@code field.path: what is wrong}. */
  public List<String> problems() {
    return problems;
  }
}
