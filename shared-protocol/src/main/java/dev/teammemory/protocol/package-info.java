/**
 * The team-memory wire protocol (see PROTOCOL.md): the records of every body, checksums, key rules,
 * ETag quoting, the batch planner and a typed client. A library: it neither logs nor reads
 * configuration.
 */
package dev.teammemory.protocol;
