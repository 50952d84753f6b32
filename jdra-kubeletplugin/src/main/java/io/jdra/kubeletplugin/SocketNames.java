package io.jdra.kubeletplugin;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/** Socket file names as upstream's kubeletplugin derives them. */
public final class SocketNames {
  /** sun_path is 108 bytes on Linux; longer socket paths cannot be bound. */
  static final int UNIX_PATH_MAX = 108;

  private SocketNames() {}

  /**
   * The registration socket's file name during rolling updates: {@code <driver>-<uid>-reg.sock},
   * or, when that path would be too long for a Unix socket, a name with a hash of the UID, or
   * finally a hash of driver and UID (upstream RollingUpdateRegistrarSocketFile).
   */
  public static String rollingUpdateRegistrarSocketFile(
      Path registryDir, String driver, String uid) {
    byte[] uidHash = sha256(uid);
    byte[] driverUidHash = sha256(driver + "\0" + uid);
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    String[] candidates = {
      driver + "-" + uid + "-reg.sock",
      driver + "-" + b64.encodeToString(Arrays.copyOf(uidHash, 8)) + "-reg.sock",
      "dra-" + b64.encodeToString(Arrays.copyOf(driverUidHash, 16)) + "-reg.sock",
    };
    for (String c : candidates) {
      if (registryDir.resolve(c).toString().length() <= UNIX_PATH_MAX) {
        return c;
      }
    }
    return candidates[candidates.length - 1];
  }

  private static byte[] sha256(String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
