import type { Server } from 'node:http';

export declare function paceRequests(server: Server): void;
