package io.jdra.apiserver.storage;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The on-disk form of a {@link LogRecord}: {@code [int length][int crc32c][payload]}, where a torn
 * or corrupt tail is detected by length or checksum. Stateless.
 */
final class RecordCodec {
  private static final byte PUT = 1;
  private static final byte DELETE = 2;

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
    byte[] p = payload.toByteArray();
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

  /** The next record, or null at a clean end, a torn tail or a bad checksum. */
  static LogRecord read(DataInputStream in) throws IOException {
    int length;
    try {
      length = in.readInt();
    } catch (EOFException e) {
      return null;
    }
    if (length <= 0 || length > 512 * 1024 * 1024) {
      return null;
    }
    int crcValue;
    byte[] p = new byte[length];
    try {
      crcValue = in.readInt();
      in.readFully(p);
    } catch (EOFException e) {
      return null;
    }
    CRC32C crc = new CRC32C();
    crc.update(p);
    if ((int) crc.getValue() != crcValue) {
      return null;
    }
    DataInputStream d = new DataInputStream(new java.io.ByteArrayInputStream(p));
    boolean deleted = d.readByte() == DELETE;
    String resource = d.readUTF();
    String ns = d.readUTF();
    String name = d.readUTF();
    String uid = d.readUTF();
    long rv = d.readLong();
    Map<String, String> labels = readMap(d);
    Map<String, String> fields = readMap(d);
    byte[] json = new byte[d.readInt()];
    d.readFully(json);
    StoredObject o =
        new StoredObject(ns, name, uid.isEmpty() ? null : uid, rv, json, labels, fields);
    return new LogRecord(resource, o, deleted);
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

  static InputStream buffered(InputStream in) {
    return new java.io.BufferedInputStream(in, 1 << 16);
  }
}
