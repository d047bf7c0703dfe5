/** The payment upload form as the check page and the upload handler share it. */
import type { FastifyReply, FastifyRequest } from "fastify";

export interface UploadForm {
  holdDays: string;
  encoding: string;
  currency: string;
  /** "online" ticked: ask the registry as `payments check --online` does. */
  online?: boolean;
}

export type ShowForm = (
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  extra: { form?: UploadForm; problems?: string[] },
) => Promise<FastifyReply>;
