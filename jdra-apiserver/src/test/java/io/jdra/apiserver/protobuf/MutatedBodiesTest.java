package io.jdra.apiserver.protobuf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Damaged bodies (bytes changed, cut short, spliced) either decode or fail with a {@link
 * ProtobufException}, which becomes a 400: never another exception, which would become a 500.
 */
class MutatedBodiesTest {
  static java.util.stream.Stream<KubectlBodiesTest.Captured> captured() throws Exception {
    return KubectlBodiesTest.captured();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("captured")
  void damagedBodiesFailCleanly(KubectlBodiesTest.Captured c) {
    Random random = new Random(c.kind().hashCode());
    int decoded = 0;
    int rejected = 0;
    for (int i = 0; i < 2000; i++) {
      byte[] body = mutate(c.body(), random);
      try {
        KubernetesProtobuf.decode(body, "v1", c.kind());
        decoded++;
      } catch (ProtobufException e) {
        assertThat(e.getMessage()).isNotBlank();
        rejected++;
      }
    }
    assertThat(decoded + rejected).isEqualTo(2000);
    assertThat(rejected).isPositive();
  }

  private static byte[] mutate(byte[] original, Random random) {
    byte[] b = original.clone();
    switch (random.nextInt(3)) {
      case 0 -> {
        for (int n = 1 + random.nextInt(3); n > 0; n--) {
          b[4 + random.nextInt(b.length - 4)] = (byte) random.nextInt(256);
        }
      }
      case 1 -> b = java.util.Arrays.copyOf(b, 4 + random.nextInt(b.length - 4));
      default -> {
        int at = 4 + random.nextInt(b.length - 4);
        byte[] junk = new byte[1 + random.nextInt(12)];
        random.nextBytes(junk);
        byte[] spliced = new byte[b.length + junk.length];
        System.arraycopy(b, 0, spliced, 0, at);
        System.arraycopy(junk, 0, spliced, at, junk.length);
        System.arraycopy(b, at, spliced, at + junk.length, b.length - at);
        b = spliced;
      }
    }
    return b;
  }
}
