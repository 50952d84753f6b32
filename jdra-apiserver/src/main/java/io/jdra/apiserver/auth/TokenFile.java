package io.jdra.apiserver.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and writes upstream's {@code --token-auth-file} format: one CSV record per line, {@code
 * token,user,uid,"group1,group2"}; groups are optional. jdra adds an optional fifth column of extra
 * values, {@code "key=value,key=value"} (upstream ignores columns after the fourth), so that a
 * token can carry {@code authentication.kubernetes.io/node-name} as a pod-bound service account
 * token does. Blank lines are skipped; a later duplicate token replaces the earlier one.
 */
public final class TokenFile {
  private TokenFile() {}

  /**
   * Parses a token file.
   *
   * @throws IllegalArgumentException for a record with fewer than 3 columns or an empty token or
   *     user, naming the file and the line
   */
  public static Map<String, UserInfo> read(Path file) throws IOException {
    Map<String, UserInfo> users = new LinkedHashMap<>();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty()) {
        continue;
      }
      String where = "token file '" + file + "' line " + (i + 1);
      List<String> record = csv(line, where);
      if (record.size() < 3) {
        throw new IllegalArgumentException(
            where
                + " must have at least 3 columns (token, user name, user uid), found "
                + record.size());
      }
      if (record.get(0).isEmpty() || record.get(1).isEmpty()) {
        throw new IllegalArgumentException(where + ": the token and the user name must be set");
      }
      List<String> groups = record.size() > 3 ? list(record.get(3)) : List.of();
      Map<String, List<String>> extra = record.size() > 4 ? extra(record.get(4), where) : Map.of();
      users.put(record.get(0), new UserInfo(record.get(1), record.get(2), groups, extra));
    }
    return users;
  }

  /** One record for {@code user}, in the format {@link #read} parses. */
  public static String line(String token, UserInfo user) {
    StringBuilder sb = new StringBuilder();
    sb.append(token).append(',').append(user.name()).append(',').append(user.uid());
    List<String> groups =
        user.groups().stream().filter(g -> !g.equals(UserInfo.AUTHENTICATED)).toList();
    if (!groups.isEmpty() || !user.extra().isEmpty()) {
      sb.append(",\"").append(String.join(",", groups)).append('"');
    }
    if (!user.extra().isEmpty()) {
      List<String> pairs = new ArrayList<>();
      user.extra().forEach((k, vs) -> vs.forEach(v -> pairs.add(k + "=" + v)));
      sb.append(",\"").append(String.join(",", pairs)).append('"');
    }
    return sb.toString();
  }

  private static List<String> list(String column) {
    if (column.isBlank()) {
      return List.of();
    }
    return List.of(column.split(","));
  }

  private static Map<String, List<String>> extra(String column, String where) {
    Map<String, List<String>> extra = new LinkedHashMap<>();
    for (String pair : list(column)) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            where + ": extra value \"" + pair + "\" is not key=value");
      }
      extra
          .computeIfAbsent(pair.substring(0, eq), k -> new ArrayList<>())
          .add(pair.substring(eq + 1));
    }
    return extra;
  }

  /** The fields of one CSV line (RFC 4180 quotes, leading spaces trimmed as upstream's reader). */
  private static List<String> csv(String line, String where) {
    List<String> fields = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean quoted = false;
    boolean start = true;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          cur.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          cur.append(c);
        }
      } else if (c == ',') {
        fields.add(cur.toString());
        cur.setLength(0);
        start = true;
      } else if (c == '"' && cur.isEmpty()) {
        quoted = true;
        start = false;
      } else if (start && c == ' ') {
        // leading space of a field
      } else {
        cur.append(c);
        start = false;
      }
    }
    if (quoted) {
      throw new IllegalArgumentException(where + ": a quoted field is not closed");
    }
    fields.add(cur.toString());
    return fields;
  }
}
