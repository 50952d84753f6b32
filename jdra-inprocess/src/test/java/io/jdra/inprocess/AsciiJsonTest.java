package io.jdra.inprocess;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AsciiJsonTest {
  private static final String EVENT = "{\"k\":\"caf\u00e9 \u20ac \uD83D\uDE00\"}\n";

  @Test
  void asciiBuffersPassThroughUncopied() {
    ByteBuffer plain = utf8("{\"k\":\"v\"}\n");
    assertThat(new AsciiJson().escape(List.of(plain)).get(0)).isSameAs(plain);
  }

  @Test
  void nonAsciiBecomesJsonEscapes() {
    String out = ascii(new AsciiJson().escape(List.of(utf8(EVENT))));
    assertThat(out).isEqualTo("{\"k\":\"caf\\u00e9 \\u20ac \\ud83d\\ude00\"}\n");
  }

  @Test
  void everySplitOfTheBytesOverTwoCallsGivesTheSameStream() {
    byte[] bytes = (EVENT + EVENT).getBytes(StandardCharsets.UTF_8);
    String whole = ascii(new AsciiJson().escape(List.of(ByteBuffer.wrap(bytes))));
    for (int cut = 0; cut <= bytes.length; cut++) {
      AsciiJson stream = new AsciiJson();
      List<ByteBuffer> out = new ArrayList<>();
      out.addAll(stream.escape(List.of(ByteBuffer.wrap(bytes, 0, cut))));
      out.addAll(stream.escape(List.of(ByteBuffer.wrap(bytes, cut, bytes.length - cut))));
      assertThat(ascii(out)).as("cut at byte %d", cut).isEqualTo(whole);
    }
  }

  @Test
  void aCharacterSplitOverThreeBuffersInOneCallIsHeldUntilComplete() {
    byte[] smiley = "\uD83D\uDE00".getBytes(StandardCharsets.UTF_8);
    List<ByteBuffer> out =
        new AsciiJson()
            .escape(
                List.of(
                    ByteBuffer.wrap(smiley, 0, 1),
                    ByteBuffer.wrap(smiley, 1, 2),
                    ByteBuffer.wrap(smiley, 3, 1)));
    assertThat(out).hasSize(3);
    assertThat(out.get(0).hasRemaining()).isFalse();
    assertThat(out.get(1).hasRemaining()).isFalse();
    assertThat(ascii(out)).isEqualTo("\\ud83d\\ude00");
  }

  @Test
  void malformedBytesBecomeReplacementCharacters() {
    List<ByteBuffer> out =
        new AsciiJson().escape(List.of(ByteBuffer.wrap(new byte[] {'"', (byte) 0xff, '"'})));
    assertThat(ascii(out)).isEqualTo("\"\\ufffd\"");
  }

  private static ByteBuffer utf8(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String ascii(List<ByteBuffer> buffers) {
    StringBuilder s = new StringBuilder();
    for (ByteBuffer b : buffers) {
      for (int i = b.position(); i < b.limit(); i++) {
        assertThat(b.get(i)).isNotNegative();
        s.append((char) b.get(i));
      }
    }
    return s.toString();
  }
}
