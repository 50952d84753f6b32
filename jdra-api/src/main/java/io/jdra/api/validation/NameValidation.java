package io.jdra.api.validation;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Name checks with upstream's messages ({@code k8s.io/apimachinery/pkg/util/validation} and {@code
 * .../api/validate/content}). The {@code is*} methods return the list of problems (empty = valid);
 * the {@code validate*} methods turn them into {@link FieldError}s at a path.
 *
 * <p>Lengths are counted in UTF-8 bytes, as Go's {@code len} does. Stateless and thread-safe.
 */
public final class NameValidation {
  private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final String DNS1123_LABEL_ERR =
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-',"
          + " and must start and end with an alphanumeric character";
  private static final String DNS1123_SUBDOMAIN_FMT =
      DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
  private static final String DNS1123_SUBDOMAIN_ERR =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or"
          + " '.', and must start and end with an alphanumeric character";
  private static final String LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
  private static final String LABEL_KEY_ERR =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an"
          + " alphanumeric character";
  private static final String LABEL_VALUE_FMT = "(" + LABEL_KEY_FMT + ")?";
  private static final String LABEL_VALUE_ERR =
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or"
          + " '.', and must start and end with an alphanumeric character";
  private static final String C_IDENTIFIER_FMT = "[A-Za-z_][A-Za-z0-9_]*";
  private static final String C_IDENTIFIER_ERR =
      "a valid C identifier must start with alphabetic character or '_', followed by a string of"
          + " alphanumeric characters or '_'";

  // The patterns the syntax checks below are written out from (NameValidationTest compares them).
  static final Pattern DNS1123_LABEL = Pattern.compile(DNS1123_LABEL_FMT);
  static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);
  static final Pattern LABEL_KEY = Pattern.compile(LABEL_KEY_FMT);
  private static final Pattern LABEL_VALUE = Pattern.compile(LABEL_VALUE_FMT);
  private static final Pattern C_IDENTIFIER = Pattern.compile(C_IDENTIFIER_FMT);

  /** Maximum length of a DNS-1123 label. */
  public static final int DNS1123_LABEL_MAX_LENGTH = 63;

  /** Maximum length of a DNS-1123 subdomain. */
  public static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

  /** Maximum length of a label value. */
  public static final int LABEL_VALUE_MAX_LENGTH = 63;

  private NameValidation() {}

  /** Length in UTF-8 bytes, as Go's {@code len(string)}. */
  static int len(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return s.getBytes(StandardCharsets.UTF_8).length;
      }
    }
    return s.length();
  }

  /** Upstream {@code RegexError}. */
  static String regexError(String msg, String fmt, String... examples) {
    if (examples.length == 0) {
      return msg + " (regex used for validation is '" + fmt + "')";
    }
    StringBuilder sb = new StringBuilder(msg).append(" (e.g. ");
    for (int i = 0; i < examples.length; i++) {
      if (i > 0) {
        sb.append(" or ");
      }
      sb.append('\'').append(examples[i]).append("', ");
    }
    return sb.append("regex used for validation is '").append(fmt).append("')").toString();
  }

  /** {@code util/validation.IsDNS1123Label} (length message in characters). */
  public static List<String> isDns1123Label(String value) {
    return dns1123Label(value, " characters");
  }

  /** {@code api/validate/content.IsDNS1123Label} (length message in bytes). */
  static List<String> isDns1123LabelBytes(String value) {
    return dns1123Label(value, " bytes");
  }

  private static List<String> dns1123Label(String value, String unit) {
    List<String> errs = new ArrayList<>();
    if (len(value) > DNS1123_LABEL_MAX_LENGTH) {
      errs.add("must be no more than " + DNS1123_LABEL_MAX_LENGTH + unit);
    }
    if (!Syntax.dnsLabel(value)) {
      if (Syntax.dnsSubdomain(value)) {
        errs.add("must not contain dots");
      } else {
        errs.add(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, "my-name", "123-abc"));
      }
    }
    return errs;
  }

  /** {@code util/validation.IsDNS1123Subdomain} (length message in characters). */
  public static List<String> isDns1123Subdomain(String value) {
    return dns1123Subdomain(value, " characters");
  }

  /** {@code api/validate/content.IsDNS1123Subdomain} (length message in bytes). */
  static List<String> isDns1123SubdomainBytes(String value) {
    return dns1123Subdomain(value, " bytes");
  }

  private static List<String> dns1123Subdomain(String value, String unit) {
    List<String> errs = new ArrayList<>();
    if (len(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) {
      errs.add("must be no more than " + DNS1123_SUBDOMAIN_MAX_LENGTH + unit);
    }
    if (!Syntax.dnsSubdomain(value)) {
      errs.add(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, "example.com"));
    }
    return errs;
  }

  /** {@code IsQualifiedName} / {@code IsLabelKey}: an optional DNS subdomain prefix and a name. */
  public static List<String> isQualifiedName(String value) {
    List<String> errs = new ArrayList<>();
    String[] parts = value.split("/", -1);
    String name;
    switch (parts.length) {
      case 1 -> name = parts[0];
      case 2 -> {
        String prefix = parts[0];
        name = parts[1];
        if (prefix.isEmpty()) {
          errs.add("prefix part must be non-empty");
        } else {
          for (String msg : isDns1123SubdomainBytes(prefix)) {
            errs.add("prefix part " + msg);
          }
        }
      }
      default -> {
        errs.add(
            "a valid label key "
                + regexError(LABEL_KEY_ERR, LABEL_KEY_FMT, "MyName", "my.name", "123-abc")
                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
        return errs;
      }
    }
    if (name.isEmpty()) {
      errs.add("name part must be non-empty");
    } else if (len(name) > 63) {
      errs.add("name part must be no more than 63 bytes");
    }
    if (!Syntax.namePart(name)) {
      errs.add(
          "name part " + regexError(LABEL_KEY_ERR, LABEL_KEY_FMT, "MyName", "my.name", "123-abc"));
    }
    return errs;
  }

  /** {@code IsValidLabelValue}. */
  public static List<String> isLabelValue(String value) {
    List<String> errs = new ArrayList<>();
    if (len(value) > LABEL_VALUE_MAX_LENGTH) {
      errs.add("must be no more than " + LABEL_VALUE_MAX_LENGTH + " bytes");
    }
    if (!LABEL_VALUE.matcher(value).matches()) {
      errs.add(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
    }
    return errs;
  }

  /** {@code IsCIdentifier}. */
  public static List<String> isCIdentifier(String value) {
    if (!C_IDENTIFIER.matcher(value).matches()) {
      return List.of(
          regexError(C_IDENTIFIER_ERR, C_IDENTIFIER_FMT, "my_name", "MY_NAME", "MyName"));
    }
    return List.of();
  }

  /** Upstream {@code NameIsDNSSubdomain}: with {@code prefix}, a trailing dash is allowed. */
  public static List<String> nameIsDnsSubdomain(String name, boolean prefix) {
    return isDns1123Subdomain(prefix ? maskTrailingDash(name) : name);
  }

  /** Upstream {@code NameIsDNSLabel}: with {@code prefix}, a trailing dash is allowed. */
  public static List<String> nameIsDnsLabel(String name, boolean prefix) {
    return isDns1123Label(prefix ? maskTrailingDash(name) : name);
  }

  private static String maskTrailingDash(String name) {
    if (name.length() > 1 && name.endsWith("-")) {
      return name.substring(0, name.length() - 2) + "a";
    }
    return name;
  }

  /** One {@code Invalid} error per message, all with the same bad value. */
  static List<FieldError> invalidEach(FieldPath path, Object value, List<String> messages) {
    List<FieldError> errs = new ArrayList<>(messages.size());
    for (String msg : messages) {
      errs.add(FieldError.invalid(path, value, msg));
    }
    return errs;
  }

  /** {@code corevalidation.ValidateDNS1123Label}. */
  public static List<FieldError> validateDns1123Label(String value, FieldPath path) {
    return invalidEach(path, value, isDns1123Label(value));
  }

  /** {@code corevalidation.ValidateDNS1123Subdomain}. */
  public static List<FieldError> validateDns1123Subdomain(String value, FieldPath path) {
    return invalidEach(path, value, isDns1123Subdomain(value));
  }

  /**
   * A DRA driver name, checked like a CSI driver name: required, at most 63 bytes, a DNS subdomain
   * once lower-cased (so an empty name gives both a Required and an Invalid error, as upstream).
   */
  public static List<FieldError> validateDriverName(String name, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    String n = name == null ? "" : name;
    if (n.isEmpty()) {
      errs.add(FieldError.required(path, ""));
    }
    if (len(n) > 63) {
      errs.add(FieldError.tooLong(path, 63));
    }
    errs.addAll(invalidEach(path, n, isDns1123Subdomain(n.toLowerCase(Locale.ROOT))));
    return errs;
  }

  /** A pool name: required, at most 253 bytes, DNS subdomains separated by slashes. */
  public static List<FieldError> validatePoolName(String name, FieldPath path) {
    List<FieldError> errs = new ArrayList<>();
    String n = name == null ? "" : name;
    if (n.isEmpty()) {
      errs.add(FieldError.required(path, ""));
      return errs;
    }
    if (len(n) > DNS1123_SUBDOMAIN_MAX_LENGTH) {
      errs.add(FieldError.tooLong(path, DNS1123_SUBDOMAIN_MAX_LENGTH));
    }
    for (String part : n.split("/", -1)) {
      errs.addAll(validateDns1123Subdomain(part, path));
    }
    return errs;
  }

  /** {@code metav1validation.ValidateLabelName}: a qualified name. */
  public static List<FieldError> validateLabelName(String name, FieldPath path) {
    String n = name == null ? "" : name;
    return invalidEach(path, n, isQualifiedName(n));
  }

  /** A label value. */
  public static List<FieldError> validateLabelValue(String value, FieldPath path) {
    String v = value == null ? "" : value;
    return invalidEach(path, v, isLabelValue(v));
  }

  /** A node name (a DNS subdomain). */
  static List<FieldError> validateNodeName(String name, FieldPath path) {
    return invalidEach(path, name, isDns1123Subdomain(name));
  }
}
