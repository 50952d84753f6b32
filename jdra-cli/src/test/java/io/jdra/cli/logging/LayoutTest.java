package io.jdra.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.event.KeyValuePair;

class LayoutTest {
  private static LoggingEvent event(Level level, String msg, Throwable t, KeyValuePair... kvs) {
    LoggerContext ctx = new LoggerContext();
    LoggingEvent e =
        new LoggingEvent(
            "fqcn",
            ctx.getLogger("io.jdra.controllers.ResourceClaimController"),
            level,
            msg,
            t,
            null);
    e.setInstant(Instant.parse("2026-11-21T23:49:38.123456Z"));
    e.setKeyValuePairs(List.of(kvs));
    return e;
  }

  @Test
  void textIsKlogStyleWithQuotedMessageAndTypedValues() {
    String line =
        new KlogTextLayout()
            .doLayout(
                event(
                    Level.INFO,
                    "Claim \"allocated\"",
                    null,
                    new KeyValuePair("claim", "default/c1"),
                    new KeyValuePair("devices", 2),
                    new KeyValuePair("shared", true)));
    assertThat(line)
        .matches(
            "I\\d{4} \\d\\d:\\d\\d:\\d\\d\\.\\d{6} +\\d+ ResourceClaimController\\] \"Claim"
                + " \\\\\"allocated\\\\\"\" claim=\"default/c1\" devices=2 shared=true\\R");
  }

  @Test
  void textSeverityLettersAndError() {
    String line =
        new KlogTextLayout().doLayout(event(Level.ERROR, "Failed", new RuntimeException("boom")));
    assertThat(line).startsWith("E").contains("\"Failed\" err=\"boom\"");
    assertThat(line.lines().toList().get(1)).isEqualTo("java.lang.RuntimeException: boom");
    assertThat(line).contains("\tat io.jdra.cli.logging.LayoutTest.textSeverityLettersAndError");
    String info =
        new KlogTextLayout().doLayout(event(Level.INFO, "Retrying", new RuntimeException("x")));
    assertThat(info.lines()).as("info keeps one line").hasSize(1);
    assertThat(new KlogTextLayout().doLayout(event(Level.WARN, "w", null))).startsWith("W");
  }

  @Test
  void jsonHasTsCallerMsgVerbosityAndKeys() {
    String line =
        new JsonLayout()
            .doLayout(
                event(
                    Level.DEBUG,
                    "Pod\tscheduled",
                    null,
                    new KeyValuePair("pod", "default/p"),
                    new KeyValuePair("score", 7)));
    assertThat(line.strip())
        .isEqualTo(
            "{\"ts\":1795304978.123456,\"caller\":\"ResourceClaimController\",\"msg\":\"Pod\\tscheduled\","
                + "\"v\":2,\"pod\":\"default/p\",\"score\":7}");
  }

  @Test
  void jsonErrorsCarryErrAndNoVerbosity() {
    String line =
        new JsonLayout().doLayout(event(Level.ERROR, "Failed", new IllegalStateException()));
    assertThat(line).contains("\"msg\":\"Failed\",\"err\":\"java.lang.IllegalStateException\"}");
    assertThat(line).doesNotContain("\"v\":");
  }

  @Test
  void verbosityMapsToLevels() {
    assertThat(new LoggingConfig(0, LogFormat.text).level()).isEqualTo(Level.INFO);
    assertThat(new LoggingConfig(1, LogFormat.text).level()).isEqualTo(Level.INFO);
    assertThat(new LoggingConfig(2, LogFormat.text).level()).isEqualTo(Level.DEBUG);
    assertThat(new LoggingConfig(4, LogFormat.text).level()).isEqualTo(Level.DEBUG);
    assertThat(new LoggingConfig(5, LogFormat.text).level()).isEqualTo(Level.TRACE);
  }
}
