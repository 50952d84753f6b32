package io.jdra.apiserver;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Makes the API server's self-signed CA and the serving certificate it signs: ECDSA P-256 keys,
 * SHA256withECDSA signatures, the extensions keytool gave them (CA: critical basicConstraints
 * CA:true; server: subjectAltName, extendedKeyUsage serverAuth; both: key identifiers). Done in
 * process: the seven keytool runs it replaces each started a JVM and together took seconds.
 */
final class Certificates {
  /** A key pair and its certificate. */
  record Issued(KeyPair keys, X509Certificate certificate) {}

  private static final String SIGNATURE = "SHA256withECDSA";
  private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
  private static final String COMMON_NAME = "2.5.4.3";
  private static final String SUBJECT_KEY_ID = "2.5.29.14";
  private static final String SUBJECT_ALT_NAME = "2.5.29.17";
  private static final String BASIC_CONSTRAINTS = "2.5.29.19";
  private static final String AUTHORITY_KEY_ID = "2.5.29.35";
  private static final String EXTENDED_KEY_USAGE = "2.5.29.37";
  private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";

  private static final SecureRandom RANDOM = new SecureRandom();

  private Certificates() {}

  /** A self-signed CA certificate named {@code CN=commonName}. */
  static Issued selfSignedCa(String commonName, ZonedDateTime notBefore, Duration validity)
      throws GeneralSecurityException {
    KeyPair keys = newKeys();
    byte[] name = name(commonName);
    byte[] extensions =
        Der.sequence(
            extension(BASIC_CONSTRAINTS, true, Der.sequence(Der.bool(true))),
            extension(SUBJECT_KEY_ID, false, Der.octets(keyId(keys.getPublic()))));
    X509Certificate cert =
        sign(
            tbs(name, name, notBefore, validity, keys.getPublic(), extensions),
            keys.getPrivate(),
            null);
    return new Issued(keys, cert);
  }

  /**
   * A serving certificate for {@code CN=commonName} valid for the given DNS names and IP addresses,
   * signed by {@code ca}.
   */
  static Issued serving(
      Issued ca,
      String commonName,
      List<String> dnsNames,
      List<InetAddress> ips,
      ZonedDateTime notBefore,
      Duration validity)
      throws GeneralSecurityException {
    KeyPair keys = newKeys();
    List<byte[]> alt = new ArrayList<>();
    for (InetAddress ip : ips) {
      alt.add(Der.tlv(0x87, ip.getAddress())); // [7] iPAddress
    }
    for (String dns : dnsNames) {
      alt.add(Der.tlv(0x82, dns.getBytes(java.nio.charset.StandardCharsets.US_ASCII))); // [2]
    }
    byte[] caKeyId = keyId(ca.keys().getPublic());
    byte[] extensions =
        Der.sequence(
            extension(SUBJECT_ALT_NAME, false, Der.sequence(alt.toArray(byte[][]::new))),
            extension(EXTENDED_KEY_USAGE, false, Der.sequence(Der.oid(SERVER_AUTH))),
            extension(SUBJECT_KEY_ID, false, Der.octets(keyId(keys.getPublic()))),
            extension(AUTHORITY_KEY_ID, false, Der.sequence(Der.tlv(0x80, caKeyId))));
    byte[] issuer = ca.certificate().getSubjectX500Principal().getEncoded();
    X509Certificate cert =
        sign(
            tbs(issuer, name(commonName), notBefore, validity, keys.getPublic(), extensions),
            ca.keys().getPrivate(),
            ca.certificate());
    return new Issued(keys, cert);
  }

  /** The certificate in PEM, lines of 64 characters as keytool -rfc writes them. */
  static String pem(X509Certificate cert) throws GeneralSecurityException {
    return pem("CERTIFICATE", cert.getEncoded());
  }

  /** A private key in PEM (PKCS#8, {@code PRIVATE KEY}), as openssl and kubeadm write it. */
  static String pem(PrivateKey key) {
    return pem("PRIVATE KEY", key.getEncoded());
  }

  private static String pem(String type, byte[] der) {
    String b64 =
        Base64.getMimeEncoder(64, "\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
            .encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + b64 + "\n-----END " + type + "-----\n";
  }

  private static KeyPair newKeys() throws GeneralSecurityException {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
    return g.generateKeyPair();
  }

  private static byte[] tbs(
      byte[] issuer,
      byte[] subject,
      ZonedDateTime notBefore,
      Duration validity,
      PublicKey key,
      byte[] extensions) {
    byte[] serial = new byte[16];
    RANDOM.nextBytes(serial);
    serial[0] = (byte) ((serial[0] & 0x7f) | 0x40); // positive, 16 bytes, never zero
    return Der.sequence(
        Der.explicit(0, Der.integer(BigInteger.TWO)), // v3
        Der.integer(new BigInteger(serial)),
        Der.sequence(Der.oid(ECDSA_WITH_SHA256)),
        issuer,
        Der.sequence(Der.time(notBefore), Der.time(notBefore.plus(validity))),
        subject,
        key.getEncoded(), // SubjectPublicKeyInfo
        Der.explicit(3, extensions));
  }

  private static X509Certificate sign(
      byte[] tbs, java.security.PrivateKey signer, X509Certificate issuer)
      throws GeneralSecurityException {
    Signature s = Signature.getInstance(SIGNATURE);
    s.initSign(signer, RANDOM);
    s.update(tbs);
    byte[] der = Der.sequence(tbs, Der.sequence(Der.oid(ECDSA_WITH_SHA256)), Der.bits(s.sign()));
    X509Certificate cert =
        (X509Certificate)
            CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(der));
    // A wrong encoding would otherwise only show as a failed TLS handshake in a client.
    cert.verify(issuer == null ? cert.getPublicKey() : issuer.getPublicKey());
    return cert;
  }

  private static byte[] name(String commonName) {
    return Der.sequence(Der.set(Der.sequence(Der.oid(COMMON_NAME), Der.utf8(commonName))));
  }

  private static byte[] extension(String oid, boolean critical, byte[] value) {
    return critical
        ? Der.sequence(Der.oid(oid), Der.bool(true), Der.octets(value))
        : Der.sequence(Der.oid(oid), Der.octets(value));
  }

  /** RFC 5280 method 1: SHA-1 of the subjectPublicKey bits. */
  private static byte[] keyId(PublicKey key) throws GeneralSecurityException {
    byte[] spki = key.getEncoded();
    // SubjectPublicKeyInfo = SEQUENCE { AlgorithmIdentifier, BIT STRING }: skip to the bits.
    int i = headerLength(spki, 0);
    i += elementLength(spki, i); // the AlgorithmIdentifier
    int bits = i + headerLength(spki, i) + 1; // past the unused-bits byte
    byte[] subjectPublicKey = java.util.Arrays.copyOfRange(spki, bits, spki.length);
    return MessageDigest.getInstance("SHA-1").digest(subjectPublicKey);
  }

  private static int headerLength(byte[] der, int at) {
    int first = der[at + 1] & 0xff;
    return first < 0x80 ? 2 : 2 + (first & 0x7f);
  }

  private static int elementLength(byte[] der, int at) {
    int first = der[at + 1] & 0xff;
    if (first < 0x80) {
      return 2 + first;
    }
    int n = 0;
    for (int k = 0; k < (first & 0x7f); k++) {
      n = (n << 8) | (der[at + 2 + k] & 0xff);
    }
    return 2 + (first & 0x7f) + n;
  }
}
