package io.jdra.kubelet.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SimulatedOutputTest {
  static final Map<String, String> ENV = new LinkedHashMap<>();

  static {
    ENV.put("GPU_DEVICE_3", "gpu-3");
    ENV.put("HOSTNAME", "pod0");
    ENV.put("DRA_ADMIN_ACCESS", "true");
    ENV.put("GPU_DEVICE_1", "gpu-1");
  }

  record Case(String name, List<String> cmd, String want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "the demos' export line",
            List.of("bash", "-c", "export; trap 'exit 0' TERM; sleep 9999 & wait"),
            "declare -x DRA_ADMIN_ACCESS=\"true\"\ndeclare -x GPU_DEVICE_1=\"gpu-1\"\n"
                + "declare -x GPU_DEVICE_3=\"gpu-3\"\ndeclare -x HOSTNAME=\"pod0\"\n"),
        new Case(
            "admin-access script: echo with variables, env | grep | sort",
            List.of(
                "bash",
                "-c",
                "echo \"=== DRA Admin Access Demo ===\"\n"
                    + "echo \"DRA Admin Access: $DRA_ADMIN_ACCESS\"\n"
                    + "echo \"\"\n"
                    + "env | grep GPU_ | sort\n"
                    + "trap 'exit 0' TERM\n"
                    + "sleep 9999 & wait\n"),
            "=== DRA Admin Access Demo ===\nDRA Admin Access: true\n\n"
                + "GPU_DEVICE_1=gpu-1\nGPU_DEVICE_3=gpu-3\n"),
        new Case(
            "single quotes keep $, braces expand, grep -v",
            List.of("sh", "-c", "echo '$HOSTNAME' ${HOSTNAME}x; printenv | grep -v GPU"),
            "$HOSTNAME pod0x\nHOSTNAME=pod0\nDRA_ADMIN_ACCESS=true\n"),
        new Case("printenv NAME", List.of("sh", "-c", "printenv GPU_DEVICE_3 MISSING"), "gpu-3\n"),
        new Case(
            "programs of the image print nothing",
            List.of("bash", "-c", "nvidia-smi -L; trap 'exit 0' TERM; sleep 9999 & wait"),
            ""),
        new Case(
            "no shell: env as the command",
            List.of("env"),
            "GPU_DEVICE_3=gpu-3\nHOSTNAME=pod0\nDRA_ADMIN_ACCESS=true\nGPU_DEVICE_1=gpu-1\n"),
        new Case(
            "semicolons inside quotes do not split",
            List.of("bash", "-c", "echo \"a; b\""),
            "a; b\n"));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void prints(Case c) {
    assertThat(SimulatedOutput.of(c.cmd(), ENV)).isEqualTo(c.want());
  }
}
