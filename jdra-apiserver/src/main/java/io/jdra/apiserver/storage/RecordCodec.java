package io.jdra.apiserver.storage;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The on-disk form of a {@link LogRecord}: {@code [int length][int crc32c][payload]}; {@link
 * LogReader} checks the framing. Stateless.
 */
final class RecordCodec {
  private static final byte PUT = 1;
  private static final byte DELETE = 2;
  private static final byte TRAILER = 3;

  private RecordCodec() {}

  static void write(LogRecord r, ByteArrayOutputStream out) throws IOException {
    ByteArrayOutputStream payload = new ByteArrayOutputStream(r.object().json().length + 128);
    DataOutputStream d = new DataOutputStream(payload);
    StoredObject o = r.object();
    d.writeByte(r.deleted() ? DELETE : PUT);
    d.writeUTF(r.resource());
    d.writeUTF(o.namespace());
    d.writeUTF(o.name());
    d.writeUTF(o.uid() == null ? "" : o.uid());
    d.writeLong(o.resourceVersion());
    writeMap(d, o.labels());
    writeMap(d, o.fields());
    d.writeInt(o.json().length);
    d.write(o.json());
    d.flush();
    frame(payload.toByteArray(), out);
  }

  private static void frame(byte[] p, ByteArrayOutputStream out) throws IOException {
    CRC32C crc = new CRC32C();
    crc.update(p);
    DataOutputStream head = new DataOutputStream(out);
    head.writeInt(p.length);
    head.writeInt((int) crc.getValue());
    head.write(p);
    head.flush();
  }

  private static void writeMap(DataOutputStream d, Map<String, String> m) throws IOException {
    d.writeInt(m.size());
    for (Map.Entry<String, String> e : m.entrySet()) {
      d.writeUTF(e.getKey());
      d.writeUTF(e.getValue());
    }
  }

  /**
   * Decodes a payload whose checksum matched.
   *
   * @throws IOException when it is not a record (the file is corrupt)
   */
  static LogRecord decode(byte[] p) throws IOException {
    DataInputStream d = new DataInputStream(new java.io.ByteArrayInputStream(p));
    byte type = d.readByte();
    if (type != PUT && type != DELETE) {
      throw new IOException("unknown record type " + type);
    }
    String resource = d.readUTF();
    String ns = d.readUTF();
    String name = d.readUTF();
    String uid = d.readUTF();
    long rv = d.readLong();
    Map<String, String> labels = readMap(d);
    Map<String, String> fields = readMap(d);
    int length = d.readInt();
    if (length < 0 || length > d.available()) {
      throw new IOException("invalid object length " + length);
    }
    byte[] json = new byte[length];
    d.readFully(json);
    StoredObject o =
        new StoredObject(ns, name, uid.isEmpty() ? null : uid, rv, json, labels, fields);
    return new LogRecord(resource, o, type == DELETE);
  }

  /**
   * The last record of a snapshot: its version and object count, so that a snapshot cut short or
   * with a damaged header is detected rather than loaded as a smaller state.
   */
  record Trailer(long version, long count) {}

  static void writeTrailer(Trailer t, ByteArrayOutputStream out) throws IOException {
    ByteArrayOutputStream payload = new ByteArrayOutputStream(17);
    DataOutputStream d = new DataOutputStream(payload);
    d.writeByte(TRAILER);
    d.writeLong(t.version());
    d.writeLong(t.count());
    d.flush();
    frame(payload.toByteArray(), out);
  }

  /** The trailer a payload holds, or null when it is an ordinary record. */
  static Trailer trailer(byte[] p) throws IOException {
    if (p.length != 17 || p[0] != TRAILER) {
      return null;
    }
    DataInputStream d = new DataInputStream(new java.io.ByteArrayInputStream(p, 1, 16));
    return new Trailer(d.readLong(), d.readLong());
  }

  private static Map<String, String> readMap(DataInputStream d) throws IOException {
    int n = d.readInt();
    if (n == 0) {
      return Map.of();
    }
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      m.put(d.readUTF(), d.readUTF());
    }
    return Map.copyOf(m);
  }
}
