/**
 * fabric8 clients for the embedded API server of this process that hand their requests to it in
 * memory ({@link io.jdra.inprocess.InProcessClients}): same REST answers, authentication and
 * watches as over HTTPS, without socket, HTTP codec or TLS. Components stay plain fabric8 users and
 * work unchanged against a real cluster.
 */
package io.jdra.inprocess;
