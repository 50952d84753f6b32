package io.jdra.controllers.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

/**
 * A watch of the pods of one namespace that reports the name of each pod whose status records a
 * claim ({@code status.resourceClaimStatuses} not empty), for the load generator's end-to-end
 * clock. It starts at a resourceVersion, so it sees only the burst's own pods and not the earlier
 * bursts' (a watch from "" first sends every existing pod), and reads each event with a streaming
 * parser that looks at three fields and skips the rest: decoding whole pods made this watch a
 * seventh of the generator's CPU, counted in the per-pod numbers although no component does it.
 *
 * <p>The watch is a plain chunked HTTP GET through the client's HTTP client (its TLS and
 * credentials); one thread reads it until {@link #close}.
 */
final class RecordedClaimsWatch implements AutoCloseable {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final InputStream stream;
  private final Thread reader;
  private volatile boolean closed;
  private volatile String failure;

  /**
   * Starts the watch of {@code namespace}'s pods after {@code resourceVersion}; {@code recorded}
   * gets each pod's name every time an event shows its claims recorded, in the reader's thread.
   */
  RecordedClaimsWatch(
      KubernetesClient client, String namespace, String resourceVersion, Consumer<String> recorded)
      throws InterruptedException {
    HttpClient http = client.getHttpClient();
    String url =
        client.getMasterUrl().toString().replaceAll("/$", "")
            + "/api/v1/namespaces/"
            + namespace
            + "/pods?watch=true&resourceVersion="
            + HttpRequest.formURLEncode(resourceVersion);
    HttpRequest request = http.newHttpRequestBuilder().uri(url).build();
    HttpResponse<InputStream> response;
    try {
      response = http.sendAsync(request, InputStream.class).get();
    } catch (ExecutionException e) {
      throw new KubernetesClientException("watch " + url + ": " + e.getCause(), e.getCause());
    }
    if (!response.isSuccessful()) {
      throw new KubernetesClientException("watch " + url + ": HTTP " + response.code());
    }
    this.stream = response.body();
    this.reader =
        Thread.ofPlatform().name("recorded-claims-watch").start(() -> read(recorded, url));
  }

  private void read(Consumer<String> recorded, String url) {
    try (JsonParser p = JSON.createParser(stream)) {
      while (p.nextToken() == JsonToken.START_OBJECT) {
        String pod = recordedPod(p);
        if (pod != null) {
          recorded.accept(pod);
        }
      }
      if (!closed) {
        failure = "the watch " + url + " ended early";
      }
    } catch (JacksonException | IllegalStateException e) {
      if (!closed) {
        failure = "the watch " + url + " failed: " + e;
      }
    }
  }

  /** Why the watch stopped before {@link #close}, or null while it runs. */
  String failure() {
    return failure;
  }

  /**
   * One watch event, the parser on its START_OBJECT: the pod's name when it is an ADDED or MODIFIED
   * pod whose status records a claim, else null. An ERROR event (such as 410 Gone) is a failure of
   * the benchmark, not a pod.
   */
  private static String recordedPod(JsonParser p) {
    String type = null;
    String name = null;
    boolean claims = false;
    while (p.nextToken() == JsonToken.PROPERTY_NAME) {
      String field = p.currentName();
      p.nextToken();
      switch (field) {
        case "type" -> type = p.getString();
        case "object" -> {
          if ("ERROR".equals(type)) {
            throw new IllegalStateException("watch error event: " + JSON.readTree(p));
          }
          PodFields pod = podFields(p);
          name = pod.name;
          claims = pod.claims;
        }
        default -> p.skipChildren();
      }
    }
    return ("ADDED".equals(type) || "MODIFIED".equals(type)) && claims ? name : null;
  }

  private record PodFields(String name, boolean claims) {}

  /** {@code metadata.name} and whether {@code status.resourceClaimStatuses} has an entry. */
  private static PodFields podFields(JsonParser p) {
    String name = null;
    boolean claims = false;
    while (p.nextToken() == JsonToken.PROPERTY_NAME) {
      String field = p.currentName();
      p.nextToken();
      if (field.equals("metadata")) {
        name = field(p, "name");
      } else if (field.equals("status")) {
        claims = nonEmptyArray(p, "resourceClaimStatuses");
      } else {
        p.skipChildren();
      }
    }
    return new PodFields(name, claims);
  }

  /** The string field {@code wanted} of the object the parser is on; the object is consumed. */
  private static String field(JsonParser p, String wanted) {
    String value = null;
    while (p.nextToken() == JsonToken.PROPERTY_NAME) {
      String field = p.currentName();
      p.nextToken();
      if (field.equals(wanted)) {
        value = p.getString();
      } else {
        p.skipChildren();
      }
    }
    return value;
  }

  /** Whether the array field {@code wanted} of the object the parser is on has an element. */
  private static boolean nonEmptyArray(JsonParser p, String wanted) {
    boolean nonEmpty = false;
    while (p.nextToken() == JsonToken.PROPERTY_NAME) {
      String field = p.currentName();
      JsonToken value = p.nextToken();
      if (field.equals(wanted) && value == JsonToken.START_ARRAY) {
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
          nonEmpty = true;
          p.skipChildren();
        }
      } else {
        p.skipChildren();
      }
    }
    return nonEmpty;
  }

  @Override
  public void close() throws InterruptedException {
    closed = true;
    try {
      stream.close();
    } catch (IOException e) {
      // The reader stops either way: its next read fails.
    }
    reader.join();
  }
}
