package io.jdra.inprocess;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites a UTF-8 JSON stream so that it holds only ASCII bytes: each non-ASCII character becomes
 * a {@code \}{@code uXXXX} escape (a surrogate pair for characters beyond U+FFFF), which JSON
 * allows in strings, the only place non-ASCII text can stand. The parsed values are unchanged.
 *
 * <p>Why: fabric8 8.0's HTTP watch reader ({@code WatchHTTPManager}) decodes every buffer on its
 * own and reads the whole backing array of the decoded {@code CharBuffer}. For a buffer with
 * multi-byte characters that array is longer than the text, so NUL characters follow the line's
 * {@code '\n'} and start the next event, which then fails to parse and closes the watch; a
 * character split over two buffers becomes U+FFFD. With ASCII input one byte is one character and
 * both cannot happen.
 *
 * <p>A character split over chunks is held back until its last byte arrives. Malformed UTF-8
 * becomes U+FFFD, as fabric8's decoding would make it. One instance per response; not thread-safe
 * (fabric8 hands a response's chunks over one at a time).
 */
final class AsciiJson {
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private final CharsetDecoder decoder =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE);
  private ByteBuffer held = ByteBuffer.allocate(0);

  /** The ASCII form of these chunks; buffers without non-ASCII bytes pass through uncopied. */
  List<ByteBuffer> escape(List<ByteBuffer> chunks) {
    List<ByteBuffer> out = new ArrayList<>(chunks.size());
    for (ByteBuffer chunk : chunks) {
      if (!held.hasRemaining() && isAscii(chunk)) {
        out.add(chunk);
      } else {
        out.add(escapeChunk(chunk));
      }
    }
    return out;
  }

  private ByteBuffer escapeChunk(ByteBuffer chunk) {
    ByteBuffer in = ByteBuffer.allocate(held.remaining() + chunk.remaining());
    in.put(held).put(chunk.duplicate()).flip();
    CharBuffer chars = CharBuffer.allocate(in.remaining());
    decoder.decode(in, chars, false);
    held = in.slice(); // an incomplete last character: at most three bytes
    chars.flip();
    ByteBuffer ascii = ByteBuffer.allocate(asciiLength(chars));
    while (chars.hasRemaining()) {
      char c = chars.get();
      if (c < 0x80) {
        ascii.put((byte) c);
      } else {
        ascii.put((byte) '\\').put((byte) 'u');
        ascii.put(HEX[c >> 12]).put(HEX[(c >> 8) & 0xf]).put(HEX[(c >> 4) & 0xf]).put(HEX[c & 0xf]);
      }
    }
    return ascii.flip();
  }

  private static int asciiLength(CharBuffer chars) {
    int length = 0;
    for (int i = chars.position(); i < chars.limit(); i++) {
      length += chars.get(i) < 0x80 ? 1 : 6;
    }
    return length;
  }

  private static boolean isAscii(ByteBuffer chunk) {
    for (int i = chunk.position(); i < chunk.limit(); i++) {
      if (chunk.get(i) < 0) {
        return false;
      }
    }
    return true;
  }
}
