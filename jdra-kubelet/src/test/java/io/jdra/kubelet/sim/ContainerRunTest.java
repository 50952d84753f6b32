package io.jdra.kubelet.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which command lines end, when, and with which exit code. */
class ContainerRunTest {
  static Optional<ContainerRun> bash(String script) {
    return ContainerRun.of(List.of("bash", "-c"), List.of(script));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = "=>",
      value = {
        "echo hi => 0 => 0",
        "export => 0 => 0",
        "env | grep GPU_ | sort => 0 => 0",
        "sleep 5; exit 3 => 5 => 3",
        "sleep 1.5m => 90 => 0",
        "sleep 1h 30s; echo done => 3630 => 0",
        "exit 300 => 0 => 44",
        "echo a; exit 1; sleep 100 => 0 => 1",
        "false => 0 => 1",
        "nvidia-smi -L; trap 'exit 0' TERM; sleep 9999 & wait => 9999 => 0",
        "sleep 10 & sleep 3; wait => 10 => 0",
        "sleep 100 & => 0 => 0",
        "python train.py; echo finished => 0 => 0",
      })
  void scriptsThatEnd(String script, long seconds, int code) {
    assertThat(bash(script)).contains(new ContainerRun(Duration.ofSeconds(seconds), code));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = "=>",
      value = {
        "sleep infinity",
        "trap 'exit 0' TERM; sleep infinity & wait",
        "while true; do echo tick; sleep 1; done",
        "tail -f /dev/null",
        "echo starting; python -m http.server",
        "sleep $DELAY",
      })
  void scriptsThatRunUntilStopped(String script) {
    assertThat(bash(script)).isEmpty();
  }

  @org.junit.jupiter.api.Test
  void commandLinesWithoutAShell() {
    assertThat(ContainerRun.of(null, null)).as("image entrypoint").isEmpty();
    assertThat(ContainerRun.of(List.of("nginx"), List.of("-g", "daemon off;"))).isEmpty();
    assertThat(ContainerRun.of(List.of("/bin/sleep", "2"), null))
        .contains(new ContainerRun(Duration.ofSeconds(2), 0));
    assertThat(ContainerRun.of(List.of("echo"), List.of("hello")))
        .contains(new ContainerRun(Duration.ZERO, 0));
  }
}
