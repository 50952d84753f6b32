package io.jdra.api.validation;

import java.util.List;
import java.util.Locale;

/** UID checks as upstream {@code validateUID} (google/uuid parsing, then normalized form). */
final class Uids {
  private Uids() {}

  static List<FieldError> validate(String uid, FieldPath path) {
    String problem = parseError(uid);
    if (problem != null) {
      return List.of(FieldError.invalid(path, uid, "error validating uid: " + problem));
    }
    if (uid.length() != 36 || !uid.equals(uid.toLowerCase(Locale.ROOT))) {
      return List.of(
          FieldError.invalid(
              path,
              uid,
              "uid must be in RFC 4122 normalized form,"
                  + " `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal"
                  + " characters"));
    }
    return List.of();
  }

  /** google/uuid {@code Validate}: the error text, or {@code null} when the text parses. */
  private static String parseError(String s) {
    String u = s;
    switch (u.length()) {
      case 36 -> {}
      case 45 -> {
        if (!u.substring(0, 9).equalsIgnoreCase("urn:uuid:")) {
          return "invalid urn prefix: " + GoFormat.quote(u.substring(0, 9));
        }
        u = u.substring(9);
      }
      case 38 -> {
        if (u.charAt(0) != '{' || u.charAt(37) != '}') {
          return "invalid bracketed UUID format";
        }
        u = u.substring(1, 37);
      }
      case 32 -> {
        for (int i = 0; i < 32; i++) {
          if (!isHex(u.charAt(i))) {
            return "invalid UUID format";
          }
        }
        return null;
      }
      default -> {
        return "invalid UUID length: " + NameValidation.len(s);
      }
    }
    if (u.charAt(8) != '-' || u.charAt(13) != '-' || u.charAt(18) != '-' || u.charAt(23) != '-') {
      return "invalid UUID format";
    }
    for (int i = 0; i < 36; i++) {
      if (i == 8 || i == 13 || i == 18 || i == 23) {
        continue;
      }
      if (!isHex(u.charAt(i))) {
        return "invalid UUID format";
      }
    }
    return null;
  }

  private static boolean isHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }
}
