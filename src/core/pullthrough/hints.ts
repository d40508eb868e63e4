/**
 * What a service may tell pull-through about its own answers, beside its routes: which dataset a
 * request reads, and which of its 200 answers say "not found". Both are optional; core knows no
 * service, so each service module declares its own (`pullThrough` on the ServiceModule).
 */
import type { Params } from './keys.js';

/** A request as the hints see it: no Fastify objects, so a service can declare them as plain data. */
export interface PulledRequest {
  method: 'GET' | 'POST';
  /** The path below the service's mount, without the query. */
  path: string;
  /** The query's parameters, then a form body's. */
  params: Params;
  /** A JSON body, parsed (GraphQL, search queries). */
  json?: unknown;
}

/** A local 200 answer as the hook holds it. */
export interface LocalAnswer {
  contentType: string;
  body: string;
}

export interface PullHints {
  /**
   * The datasets the request reads (names among those of the service whose data it serves: its
   * own, or its `dataOf`'s), or undefined when no one can be named. The request counts as one of a
   * service with nothing loaded when any of them has no load: a partly loaded service (NCBI gene
   * without ClinVar) otherwise answers the missing part's requests with its empty answers.
   */
  needs?(req: PulledRequest): readonly string[] | undefined;
  /**
   * Whether a local 200 answer says that none of the requested records is here (E-utilities'
   * ESummary errors, GraphQL's null): the hook treats it as a 404. An answer that has some of them
   * is an answer; so is a search that finds nothing in loaded data, which is authoritative.
   */
  miss?(req: PulledRequest, answer: LocalAnswer): boolean;
}

/** A parameter's value by name, case-insensitive; the last one given, so a form body's wins over the query's. */
export function param(req: PulledRequest, name: string): string | undefined {
  const n = name.toLowerCase();
  return req.params.findLast(([k]) => k.toLowerCase() === n)?.[1];
}
