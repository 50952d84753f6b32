package io.jdra.apiserver.protobuf;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The protobuf layout of the served kinds as generated into {@code proto.txt}: one message per Go
 * struct, each field with its number, JSON name, shape and Go JSON encoding flags. Immutable and
 * thread-safe once loaded.
 */
final class ProtoSchema {
  /** How a field repeats. */
  enum Shape {
    ONE,
    LIST,
    MAP
  }

  /** The Go value type of a field (or of a list element, a map key or a map value). */
  enum Kind {
    STRING,
    BYTES,
    BOOL,
    INT,
    UINT,
    DOUBLE,
    FLOAT,
    TIME,
    MICROTIME,
    QUANTITY,
    INTSTR,
    RAW,
    DURATION,
    FIELDSV1,
    MESSAGE
  }

  /** A value type; {@code message} names the nested message when kind is MESSAGE. */
  record Value(Kind kind, String message) {
    static Value parse(String s) {
      if (s.startsWith("@")) {
        return new Value(Kind.MESSAGE, s.substring(1));
      }
      return new Value(Kind.valueOf(s.toUpperCase(Locale.ROOT)), null);
    }
  }

  /**
   * A message field. {@code key} is set for maps only. {@code pointer}: a Go pointer, in the JSON
   * exactly when on the wire; {@code omitEmpty}: Go's omitempty; {@code inline}: the nested
   * message's fields belong to the parent in JSON.
   */
  record Field(
      int number,
      String json,
      String goName,
      Shape shape,
      Value key,
      Value value,
      boolean pointer,
      boolean omitEmpty,
      boolean inline) {}

  /** A message: its fields in Go declaration order (the order of the JSON form). */
  record Message(String name, List<Field> fields, Map<Integer, Field> byNumber) {
    /** The Go type name, as Go's generated unmarshallers name it in errors. */
    String simpleName() {
      return name.substring(name.lastIndexOf('.') + 1);
    }
  }

  private static final ProtoSchema INSTANCE = load();

  private final Map<String, Message> messages;
  private final Map<String, String> roots;

  private ProtoSchema(Map<String, Message> messages, Map<String, String> roots) {
    this.messages = Map.copyOf(messages);
    this.roots = Map.copyOf(roots);
  }

  static ProtoSchema get() {
    return INSTANCE;
  }

  /** The message of a kind as named in an envelope, or null when that kind is not served. */
  Message root(String apiVersion, String kind) {
    String name = roots.get(apiVersion + " " + kind);
    if (name == null) {
      name = roots.get("* " + kind);
    }
    return name == null ? null : messages.get(name);
  }

  Message message(String name) {
    Message m = messages.get(name);
    if (m == null) {
      throw new IllegalStateException("proto.txt has no message " + name);
    }
    return m;
  }

  private static ProtoSchema load() {
    try (InputStream in = ProtoSchema.class.getResourceAsStream("proto.txt")) {
      if (in == null) {
        throw new IllegalStateException("proto.txt is missing from the class path");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      return parse(r.lines().toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ProtoSchema parse(List<String> lines) {
    Map<String, List<Field>> fields = new HashMap<>();
    Map<String, String> roots = new HashMap<>();
    List<Field> current = null;
    for (String line : lines) {
      String[] p = line.split(" ");
      switch (p[0]) {
        case "R" -> roots.put(p[1] + " " + p[2], p[3]);
        case "T" -> {
          current = new ArrayList<>();
          fields.put(p[1], current);
        }
        case "F" -> current.add(field(p));
        default -> {
          // comments and blank lines
        }
      }
    }
    Map<String, Message> messages = new HashMap<>();
    fields.forEach((name, fs) -> messages.put(name, message(name, fs)));
    ProtoSchema schema = new ProtoSchema(messages, roots);
    schema.checkReferences();
    return schema;
  }

  private static Field field(String[] p) {
    Shape shape = Shape.valueOf(p[4].toUpperCase(Locale.ROOT));
    Value key = null;
    Value value;
    if (shape == Shape.MAP) {
      String[] kv = p[5].split("=", 2);
      key = Value.parse(kv[0]);
      value = Value.parse(kv[1]);
    } else {
      value = Value.parse(p[5]);
    }
    List<String> flags = List.of(p).subList(6, p.length);
    return new Field(
        Integer.parseInt(p[1]),
        p[2],
        p[3],
        shape,
        key,
        value,
        flags.contains("ptr"),
        flags.contains("omit"),
        flags.contains("inline"));
  }

  private static Message message(String name, List<Field> fields) {
    Map<Integer, Field> byNumber = new HashMap<>();
    for (Field f : fields) {
      byNumber.put(f.number(), f);
    }
    return new Message(name, List.copyOf(fields), Map.copyOf(byNumber));
  }

  /** Fails at load time, not at request time, when the generated table is inconsistent. */
  private void checkReferences() {
    roots.values().forEach(this::message);
    for (Message m : messages.values()) {
      for (Field f : m.fields()) {
        if (f.value().kind() == Kind.MESSAGE) {
          message(f.value().message());
        }
        if (f.inline() && f.value().kind() != Kind.MESSAGE) {
          throw new IllegalStateException("inline field " + m.name() + "." + f.goName());
        }
      }
    }
  }
}
