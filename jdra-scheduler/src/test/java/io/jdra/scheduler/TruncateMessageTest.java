package io.jdra.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** FailedScheduling notes fit the API's 1,024 limit, as upstream's truncateMessage makes them. */
class TruncateMessageTest {
  @Test
  void aNoteAtTheLimitIsKept_aLongerOneEndsInEllipsis() {
    String atLimit = "x".repeat(1024);
    assertThat(Scheduler.truncateMessage(atLimit)).isSameAs(atLimit);

    String cut = Scheduler.truncateMessage("0/5000 nodes are available: " + "y".repeat(2000));
    assertThat(cut).hasSize(1024).startsWith("0/5000 nodes are available: yyy").endsWith("y ...");
  }
}
